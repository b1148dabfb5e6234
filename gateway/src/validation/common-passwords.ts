/**
 * Frequently breached passwords of 10+ characters (the only ones our length rule lets through),
 * from public breach-corpus top lists. Compared case-insensitively. Patterns such as one repeated
 * character or a plain run of digits are refused separately in passwords.ts.
 */
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set([
  "1234567890", "0123456789", "1234567891", "12345678910", "123456789a", "a123456789", "1234554321",
  "1111111111", "0000000000", "1q2w3e4r5t", "1qaz2wsx3edc", "qwertyuiop", "qwerty1234", "qwerty12345",
  "qwerty123456", "asdfghjkl1", "zxcvbnm123", "password12", "password123", "password1234", "password!",
  "passw0rd12", "p@ssw0rd12", "p@ssword123", "iloveyou12", "iloveyou123", "princess12", "princess123",
  "sunshine12", "sunshine123", "football12", "football123", "baseball12", "baseball123", "superman12",
  "superman123", "starwars12", "starwars123", "trustno1234", "letmein123", "letmein1234", "welcome123",
  "welcome1234", "administrator", "changeme123", "monkey12345", "dragon12345", "michael123", "jennifer123",
  "jesuschrist", "jesuslovesme", "jesusismylord", "jesussaves1", "godisgood1", "godisgood123", "godislove1",
  "blessed123", "blessed1234", "faithful123", "halleluiah", "hallelujah", "hallelujah1", "christian1",
  "christian123", "church1234", "churchpassword", "amazinggrace", "praisethelord", "lovejesus1",
  "abcdefghij", "abcd123456", "abc1234567", "qazwsxedcrfv", "1q2w3e4r5t6y", "zaq12wsxcde", "computer12",
  "internet123", "whatever123", "0987654321", "9876543210", "5555555555", "7777777777", "9999999999",
  "1212121212", "1231231231", "12341234", "1234qwer", "q1w2e3r4t5", "q1w2e3r4t5y6", "loveyou123",
  "mypassword", "mypassword1", "mypassword123", "yourpassword", "secretpassword", "supersecret",
  "passwordpassword", "qwertyqwerty", "asdfasdfasdf", "abc123abc123", "football1234", "michelle123",
]);
