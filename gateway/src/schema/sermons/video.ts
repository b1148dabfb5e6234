/**
 * Sermon videos are links to YouTube or Vimeo, never arbitrary iframes: the URL is parsed, only
 * those two sites are accepted, and the embed is rebuilt from the video's id (youtube-nocookie.com,
 * player.vimeo.com), so nothing an editor types ends up in a src attribute.
 */
export interface VideoLink {
  provider: "YOUTUBE" | "VIMEO";
  videoId: string;
  url: string;
  embedUrl: string;
}

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const VIMEO_ID = /^\d{6,12}$/;

export function parseVideoUrl(input: string): VideoLink | null {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  const host = url.hostname.toLowerCase().replace(/^(www\.|m\.)/, "");
  const parts = url.pathname.split("/").filter(Boolean);
  let youtube: string | undefined;
  if (host === "youtu.be") youtube = parts[0];
  else if (host === "youtube.com" || host === "youtube-nocookie.com" || host === "music.youtube.com") {
    if (url.pathname === "/watch") youtube = url.searchParams.get("v") ?? undefined;
    else if (["embed", "shorts", "live", "v"].includes(parts[0] ?? "")) youtube = parts[1];
  }
  if (youtube !== undefined) {
    if (!YOUTUBE_ID.test(youtube)) return null;
    return {
      provider: "YOUTUBE",
      videoId: youtube,
      url: `https://www.youtube.com/watch?v=${youtube}`,
      embedUrl: `https://www.youtube-nocookie.com/embed/${youtube}`,
    };
  }
  let vimeo: string | undefined;
  if (host === "vimeo.com") vimeo = parts.find((part) => VIMEO_ID.test(part));
  else if (host === "player.vimeo.com" && parts[0] === "video") vimeo = parts[1];
  if (vimeo !== undefined && VIMEO_ID.test(vimeo)) {
    return {
      provider: "VIMEO",
      videoId: vimeo,
      url: `https://vimeo.com/${vimeo}`,
      embedUrl: `https://player.vimeo.com/video/${vimeo}`,
    };
  }
  return null;
}
