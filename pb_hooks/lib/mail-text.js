// The plain-text part of PocketBase's own auth mails (verification, password reset, new sign-in alert) (see gateway/src/mail/auth-templates.ts): the
// gateway writes it into an HTML comment of the template; here it becomes the message's text part
// (PocketBase would otherwise derive one from the HTML, with links as "[label](url)").
const START = "<!--flock:text\n";
const END = "\n-->";

function decode(text) {
  return text.replace(/&#45;/g, "-").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

function useTextPart(message) {
  const html = message.html || "";
  const start = html.indexOf(START);
  if (start < 0) return;
  const end = html.indexOf(END, start + START.length);
  if (end < 0) return;
  message.text = decode(html.slice(start + START.length, end));
  message.html = html.slice(0, start) + html.slice(end + END.length);
}

module.exports = { useTextPart };
