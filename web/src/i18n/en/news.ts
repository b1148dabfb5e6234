/** English: the news list, a post and the latest news on the front page (features/content). */
export const news = {
  "news.title": "News",
  "news.empty": "No news yet. Check back soon.",
  "news.older": "Older news",
  "news.pinned": "Pinned",
  "news.invite.title": "Sign in to read this",
  "news.invite.body":
    "This news isn't available to everyone. If it is for our members, sign in and you'll come straight back here.",
  "news.invite.signIn": "Sign in",
  "news.invite.allNews": "All news",
  "news.membersOnly": "Members only",
  "news.latest": "Latest news",
  "news.all": "All news",
  "news.status.DRAFT": "Draft",
  "news.status.SCHEDULED": "Scheduled",
  "news.status.PUBLISHED": "Published",
  "news.status.ARCHIVED": "Archived",
} as const;
