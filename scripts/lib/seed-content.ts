import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type PocketBase from "pocketbase";
import { ROOT } from "./pocketbase.ts";
import { toPocketBaseDate } from "../../gateway/src/pocketbase/dates.ts";

/** Demo pages of Grace Community Church, in navigation order. */
const PAGES = [
  {
    title: "About us",
    slug: "about",
    seoDescription:
      "Grace Community Church is a family of faith in Springfield: who we are, what a Sunday looks like and how to get involved.",
    body: `Grace Community Church has gathered on Maple Avenue since 1954. Today we are about three hundred people of every age and background, learning together what it means to follow Jesus in Springfield.

## What to expect on a Sunday

- **9:00 AM, traditional worship** with hymns, organ and choir.
- **11:00 AM, contemporary worship** with our band.
- Coffee and pastries in the fellowship hall between the services.
- Children's church for ages 3–11 during both services; a staffed nursery for the little ones.

Come as you are. Nobody will single you out, and you are welcome to simply watch and listen.

## Getting involved

Most of church life happens in **small groups** that meet in homes across town during the week. Ask at the welcome desk, or [contact the church office](/p/contact): we'll help you find one near you.`,
  },
  {
    title: "What we believe",
    slug: "beliefs",
    seoDescription: "The beliefs that shape Grace Community Church, in plain words.",
    body: `We hold to the historic Christian faith as summarised in the Apostles' Creed.

## In short

1. There is one God: Father, Son and Holy Spirit.
2. Jesus Christ, fully God and fully human, lived, died and rose again, and offers new life to all.
3. The Bible is God's word, trustworthy for faith and life.
4. The church is a family of ordinary people, saved by grace, sent to love our neighbours.

> "For it is by grace you have been saved, through faith — and this is not from yourselves, it is the gift of God." — Ephesians 2:8

We love questions. If you would like to talk about faith over a coffee, [let us know](/p/contact).`,
  },
  {
    title: "Our staff",
    slug: "staff",
    seoDescription: "The pastors and staff of Grace Community Church.",
    body: `| Name | Role | Ask them about |
| --- | --- | --- |
| Rev. Paul Pastor | Senior pastor | Sunday teaching, pastoral care |
| Alice Admin | Church office | Rooms, calendars, membership |
| Erin Editor | Communications | News, the website, the newsletter |
| Grace Kim | Children & youth | Children's church, youth group, camp |

The church office is open Monday to Thursday, 9 AM to 3 PM.`,
  },
  {
    title: "Contact",
    slug: "contact",
    seoDescription: "How to reach Grace Community Church: address, phone, email and office hours.",
    body: `**Grace Community Church**
1200 Maple Avenue, Springfield, IL 62704

- Phone: [+1 217 555 0142](tel:+12175550142)
- Email: [office@grace.example](mailto:office@grace.example)
- Office hours: Monday–Thursday, 9 AM – 3 PM

Parking is free in the lot behind the church; the side entrance on Elm Street has step-free access.`,
  },
];

/** Demo news, newest first; each has a cover from scripts/seed-assets/. */
const POSTS = [
  {
    title: "Christmas concert: tickets are free",
    slug: "christmas-concert",
    image: "christmas-concert",
    alt: "A starry night sky with a warm glow on the horizon",
    summary: "Our choir and band invite the whole town to an evening of carols on December 18.",
    pinned: true,
    audience: "public",
    daysAgo: 1,
    body: `Join us on **Thursday, December 18 at 7 PM** for an evening of carols old and new, with our choir, the band and the Springfield Youth Orchestra.

Tickets are free but help us plan: pick them up at the welcome desk or from the church office. Mulled cider and cookies afterwards!

Can't make it? The concert is streamed live on our YouTube channel, and the recording stays online afterwards.`,
  },
  {
    title: "Food bank: winter appeal",
    slug: "food-bank-winter-appeal",
    image: "food-bank",
    alt: "Fruit and vegetables on a wooden table",
    summary: "The Springfield food bank is low on tinned goods and warm clothing. Here is what helps most.",
    pinned: false,
    audience: "public",
    daysAgo: 5,
    body: `Every Saturday, volunteers from Grace and three other churches serve about two hundred families at the Springfield food bank.

## What helps most right now

- Tinned fish, beans and vegetables
- Rice, pasta, cereal
- Warm socks, hats and gloves (new, please)

Bring donations to the collection bins in the foyer any Sunday, or to the office during the week. Thank you!`,
  },
  {
    title: "Youth camp 2027: registration opens",
    slug: "youth-camp-2027",
    image: "youth-camp",
    alt: "Green hills under a blue sky and a bright sun",
    summary: "Five days at Lake Springfield for students in grades 6–12. Early-bird price until January 31.",
    pinned: false,
    audience: "public",
    daysAgo: 9,
    body: `Camp is back! From **June 21 to 25** our youth group heads to Lake Springfield for five days of worship, canoeing, campfires and friendships that last.

Registration opens online in January. Scholarships are available: no student stays home because of cost. Ask Grace Kim for details.`,
  },
  {
    title: "Baptisms on Easter Sunday",
    slug: "easter-baptisms",
    image: "baptism",
    alt: "Light blue water with soft ripples",
    summary: "Thinking about baptism? Join the short preparation course in March.",
    pinned: false,
    audience: "public",
    daysAgo: 14,
    body: `On Easter Sunday we celebrate baptisms in both services. If you would like to be baptised, or want to talk about it, join our three-week preparation course on **Tuesday evenings in March**.

Speak to Pastor Paul after any service or [contact the office](/p/contact).`,
  },
  {
    title: "Choir rehearsals move to Wednesdays",
    slug: "choir-wednesdays",
    image: "choir",
    alt: "Concentric rings of light on a deep blue background",
    summary: "From January the choir rehearses on Wednesdays at 7:30 PM, after midweek prayer.",
    pinned: false,
    audience: "members",
    daysAgo: 20,
    body: `A note for choir members: rehearsals move from Thursday to **Wednesday at 7:30 PM**, straight after midweek prayer, starting January 7.

New voices are always welcome, no audition needed.`,
  },
  {
    title: "Harvest supper: thank you!",
    slug: "harvest-supper-thank-you",
    image: "harvest-supper",
    alt: "Warm autumn colours with round shapes like fruit on a table",
    summary:
      "Over 150 people shared a meal at this year's harvest supper, and we raised $2,400 for the food bank.",
    pinned: false,
    audience: "public",
    daysAgo: 30,
    body: `What an evening! More than **150 people** shared soup, bread and pie in the fellowship hall, and together we raised **$2,400** for the Springfield food bank.

![Warm autumn colours with round shapes like fruit on a table](IMAGE_URL)

Thank you to everyone who cooked, set up, served and washed up.`,
  },
];

/**
 * Pages, media and news for the demo church (system job, part of the one-time demo seed): the
 * About/Beliefs/Staff/Contact pages in the navigation and six published posts with cover images.
 */
export async function seedContent(system: PocketBase, authorId: string, authorName: string): Promise<void> {
  for (const [index, page] of PAGES.entries()) {
    await system.collection("pages").create({
      ...page,
      status: "published",
      showInNav: true,
      navOrder: (index + 1) * 10,
      publishedAt: toPocketBaseDate(new Date()),
      revision: 1,
      updatedBy: authorId,
    });
  }
  for (const post of POSTS) {
    const bytes = await readFile(join(ROOT, "scripts", "seed-assets", `${post.image}.jpg`));
    const media = await system.collection("media").create({
      file: new File([new Uint8Array(bytes)], `${post.image}.jpg`, { type: "image/jpeg" }),
      kind: "image",
      filename: `${post.image}.jpg`,
      mimeType: "image/jpeg",
      size: bytes.length,
      width: 1200,
      height: 800,
      alt: post.alt,
      uploadedBy: authorId,
    });
    const imageUrl = `/files/media/${media.id}/${encodeURIComponent(media.file as string)}`;
    const published = toPocketBaseDate(new Date(Date.now() - post.daysAgo * 24 * 3600_000));
    await system.collection("posts").create({
      title: post.title,
      slug: post.slug,
      summary: post.summary,
      body: post.body.replace("IMAGE_URL", imageUrl),
      cover: media.id,
      status: "published",
      publishedAt: published,
      pinned: post.pinned,
      audience: post.audience,
      author: authorId,
      authorName,
      revision: 1,
      updatedBy: authorId,
    });
  }
}
