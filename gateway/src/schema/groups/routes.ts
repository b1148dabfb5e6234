import type { GroupRecord } from "../../pocketbase/records.ts";
import { markdownPool } from "../../markdown/pool.ts";
import type { FeatureHttp } from "../../http/route-table.ts";
import { guestFind, notFound, titled, type MetaResolver, type PageRoute } from "../../http/page-meta.ts";

// Groups' entry in the gateway's route table: the meta of the groups pages (no routes of their own).

/** A public group: its name and description (members-only and hidden groups answer 404 here, as to a visitor). */
const groupPage: MetaResolver = async ({ settings, guest }, { slug = "" }) => {
  const group = await guestFind<GroupRecord>(
    guest,
    "groups",
    guest.filter("slug = {:slug} && status = 'active' && visibility = 'public'", { slug }),
  );
  if (!group) return notFound(settings);
  const description =
    (await markdownPool.plainText(group.description ?? "", 200)) ||
    group.schedule ||
    settings.tagline ||
    group.name;
  return { title: `${group.name} · ${settings.churchName}`, description, found: true };
};

const GROUP_PAGES: PageRoute[] = [
  [/^\/groups$/, titled("page.groups")],
  [/^\/groups\/(?<slug>[a-z0-9-]{1,120})$/, groupPage],
];

export const groupsHttp: FeatureHttp = { pages: GROUP_PAGES };
