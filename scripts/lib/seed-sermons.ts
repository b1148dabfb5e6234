import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type PocketBase from "pocketbase";
import sharp from "sharp";
import { parseBuffer } from "music-metadata";
import { ROOT } from "./pocketbase.ts";
import { toneMp3 } from "./mp3.ts";
import { booksField, parseScripture } from "../../gateway/src/schema/sermons/scripture.ts";
import { toPocketBaseDate } from "../../gateway/src/pocketbase/dates.ts";

/** Square crops of the demo photos: series artwork (1400 px, as podcast apps want) and speaker photos. */
async function squareJpeg(
  asset: string,
  size: number,
  name: string,
  position: string = "centre",
): Promise<File> {
  const bytes = await readFile(join(ROOT, "scripts", "seed-assets", `${asset}.jpg`));
  const jpeg = await sharp(bytes)
    .resize(size, size, { fit: "cover", position })
    .jpeg({ quality: 82 })
    .toBuffer();
  return new File([new Uint8Array(jpeg)], name, { type: "image/jpeg" });
}

const SERIES = [
  {
    key: "psalms",
    title: "Songs for the Journey",
    slug: "songs-for-the-journey",
    asset: "choir",
    description: "A summer in the Psalms: prayers for every season of life, from lament to praise.",
  },
  {
    key: "john",
    title: "Come and See: The Gospel of John",
    slug: "come-and-see",
    asset: "baptism",
    description: "Walking through John's Gospel and the signs that show who Jesus is.",
  },
];

const SPEAKERS = [
  {
    key: "daniel",
    name: "Pastor Daniel Reyes",
    slug: "daniel-reyes",
    asset: "harvest-supper",
    position: "north",
    bio: "Daniel has been senior pastor at Grace since 2015. He loves long walks, church history and his family's Sunday pancakes.",
  },
  {
    key: "naomi",
    name: "Naomi Carter",
    slug: "naomi-carter",
    asset: "food-bank",
    position: "centre",
    bio: "Naomi leads our food bank and teaches on Wednesday evenings.",
  },
  {
    key: "samuel",
    name: "Samuel Okafor",
    slug: "samuel-okafor",
    asset: "youth-camp",
    position: "centre",
    bio: "Samuel is our youth pastor and a fan of very loud worship.",
  },
];

const SERMONS = [
  {
    title: "The Lord Is My Shepherd",
    series: "psalms",
    speakers: ["daniel"],
    weeksAgo: 6,
    scripture: "Psalm 23",
    summary: "What it means to be led, fed and kept by a good shepherd, even through the darkest valley.",
    notes:
      "## Three pictures of care\n\n1. **Green pastures**: God provides rest before we ask for it.\n2. **The dark valley**: his presence, not our circumstances, is the comfort.\n3. **The table**: grace that is set out in front of our enemies.\n\n> Surely goodness and mercy shall follow me all the days of my life.\n\n### For your week\n\nRead the psalm slowly each morning and notice which line stays with you.",
  },
  {
    title: "Out of the Depths",
    series: "psalms",
    speakers: ["naomi"],
    weeksAgo: 5,
    scripture: "Ps 130; Lam 3:22-24",
    summary: "Lament is not a lack of faith: it is faith that still speaks to God when everything hurts.",
    notes:
      "Lament gives us **words for grief**. Psalm 130 moves from the depths to waiting, and from waiting to hope.\n\n- Name the pain honestly.\n- Remember who God has been.\n- Wait, like watchmen for the morning.",
  },
  {
    title: "Let Everything That Has Breath",
    series: "psalms",
    speakers: ["samuel"],
    weeksAgo: 4,
    scripture: "Psalm 150",
    summary: "The Psalter ends in praise: loud, joyful and shared by everything that breathes.",
    notes:
      "Praise is where the whole book has been heading. It is a *shared* song, with every instrument and every voice.",
    videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
  },
  {
    title: "Water Into Wine",
    series: "john",
    speakers: ["daniel"],
    weeksAgo: 3,
    scripture: "John 2:1-11",
    summary: "The first sign in John's Gospel happens at a wedding that is about to run dry.",
    notes:
      'The first sign shows **abundance**: six stone jars, filled to the brim. Jesus keeps the best for last.\n\n### Questions for small groups\n\n- Where is your life running dry?\n- What would it look like to do "whatever he tells you"?',
  },
  {
    title: "You Must Be Born Again",
    series: "john",
    speakers: ["naomi", "daniel"],
    weeksAgo: 2,
    scripture: "Jn 3:1-21",
    summary: "Nicodemus comes at night with questions, and leaves with the most famous verse in the Bible.",
    notes:
      "Nicodemus is a teacher who discovers he has everything to learn. New birth is **God's work**, like the wind: we see its effects.\n\n> For God so loved the world that he gave his one and only Son.",
  },
  {
    title: "Living Water",
    series: "john",
    speakers: ["samuel"],
    weeksAgo: 1,
    scripture: "John 4:1-42",
    summary: "At a well at noon, Jesus offers a Samaritan woman water that never runs out.",
    notes:
      'The conversation at the well crosses every boundary of the day: gender, ethnicity, religion and reputation. The woman becomes the town\'s first evangelist: "Come and see."',
  },
];

/** The demo sermons: two series, three speakers, six sermons with short real MP3s (system job). */
export async function seedSermons(system: PocketBase): Promise<void> {
  const series = new Map<string, string>();
  for (const s of SERIES) {
    const record = await system.collection("sermon_series").create({
      title: s.title,
      slug: s.slug,
      description: s.description,
      artwork: await squareJpeg(s.asset, 1400, `${s.slug}.jpg`),
    });
    series.set(s.key, record.id);
  }
  const speakers = new Map<string, string>();
  for (const s of SPEAKERS) {
    const record = await system.collection("speakers").create({
      name: s.name,
      slug: s.slug,
      bio: s.bio,
      photo: await squareJpeg(s.asset, 400, `${s.slug}.jpg`, s.position),
    });
    speakers.set(s.key, record.id);
  }
  // Sundays before today, oldest first.
  const lastSunday = new Date();
  lastSunday.setUTCHours(0, 0, 0, 0);
  lastSunday.setUTCDate(lastSunday.getUTCDate() - lastSunday.getUTCDay());
  for (const [index, sermon] of SERMONS.entries()) {
    const preached = new Date(lastSunday.getTime() - (sermon.weeksAgo - 1) * 7 * 86_400_000);
    const audio = toneMp3(12 + index * 2, { seed: index });
    const parsed = parseScripture(sermon.scripture);
    const duration =
      (await parseBuffer(audio, { mimeType: "audio/mpeg" }, { duration: false })).format.duration ?? 0;
    await system.collection("sermons").create({
      title: sermon.title,
      slug: sermon.title
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-|-$/g, ""),
      series: series.get(sermon.series),
      speakers: sermon.speakers.map((key) => speakers.get(key)),
      preachedOn: `${preached.toISOString().slice(0, 10)} 00:00:00.000Z`,
      scripture: sermon.scripture,
      scriptureOsis: parsed.osis,
      scriptureBooks: booksField(parsed.books),
      summary: sermon.summary,
      notes: sermon.notes,
      videoUrl: sermon.videoUrl ?? "",
      audio: new File(
        [new Uint8Array(audio)],
        `${sermon.title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}.mp3`,
        { type: "audio/mpeg" },
      ),
      audioSize: audio.length,
      audioType: "audio/mpeg",
      durationSeconds: Math.round(duration * 10) / 10,
      status: "published",
      publishedAt: toPocketBaseDate(preached),
    });
  }
}
