/** English: the member directory (features/people, /directory). */
export const directory = {
  "directory.title": "Directory",
  "directory.intro":
    "Members who chose to be listed. Each person decides which of their details are shown here.",
  "directory.myListing": "My listing and privacy",
  "directory.myListingLink": "Choose what others see of you.",
  "directory.search": "Search by name",
  "directory.searchHint": "First, last or preferred name, or the household's name.",
  "directory.count": "{count, plural, one {# household} other {# households}}",
  "directory.matches": "{count, plural, one {# household matches} other {# households match}} “{q}”",
  "directory.empty": "No one is listed in the directory yet.",
  "directory.noMatch": "No one matches “{q}”. Check the spelling, or try a first or last name alone.",
  "directory.clearSearch": "Clear the search",
  "directory.showMore": "Show more",
  "directory.memberOf": "Household: {name}",
  "directory.householdOf": "Also in {name}",
  "directory.nothingShared":
    "No contact details are shared with you. You can still write through the Contact button.",
  "directory.thisIsYou": "This is you.",
  "directory.pendingTitle": "Your membership is waiting for approval",
  "directory.pendingBody":
    "The directory opens once the church office confirms your account. You'll get an email when it does.",
  "directory.membersOnlyTitle": "The directory is for members",
  "directory.membersOnlyBody":
    "Only active members of the church can see the directory. Please contact the church office if you think this is a mistake.",
  "directory.backToAccount": "Go to my account",
  "directory.contact.open": "Contact {name}",
  "directory.contact.title": "Write to {name}",
  "directory.contact.privacy":
    "{name} gets your message by email, with your name and email address ({email}) so they can reply if they choose. Their address isn't shown to you.",
  "directory.contact.message": "Message",
  "directory.contact.count": "{count} of {max} characters",
  "directory.contact.empty": "Write a message first.",
  "directory.contact.send": "Send message",
  "directory.contact.sending": "Sending…",
  "directory.contact.sent": "Message sent",
  "directory.contact.sentBody": "If {name} replies, the answer comes to your email.",
  "directory.contact.note":
    "Messages go through the church's app: their address stays private; yours is shared with them so they can reply.",
  "directory.contact.privacyShared":
    "{name} gets your message by email, with your name and email address ({email}) so they can reply if they choose. {name} shares an email address with you on this page; the message goes to their main address.",
  "directory.contact.noteShared":
    "Messages go through the church's app; yours is shared with them so they can reply.",
  "directory.notShown": "Not shown to other members",
} as const;
