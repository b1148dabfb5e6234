import { lazy, Suspense, useState, type FormEvent } from "react";
import { Link, useParams, useSearchParams } from "react-router";
import { LIMITS } from "@flock/shared/limits";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { dateTimeFormat, formatWhen } from "../../i18n/format.ts";
import { Loading } from "../../components/Loading.tsx";
import { Alert } from "../../components/Alert.tsx";
import { RichText } from "../../components/RichText.tsx";
import { CheckboxField, SelectField, TextAreaField, TextField } from "../../components/Field.tsx";
import { handleError, type UiError } from "../../lib/handleError.ts";
import { usePageTitle } from "../../lib/usePageTitle.ts";
import { NotFoundPage } from "../errors/NotFoundPage.tsx";
import { useAppShell } from "../../gql/AppShell.generated.ts";
import type { GroupType, Weekday } from "../../gql/types.ts";
import {
  useAddGroupMember,
  useAskGroupToPray,
  useDecideJoinRequest,
  useEmailGroup,
  useGroupFinder,
  useGroupMemberCandidates,
  useUpdateGroupDetails,
  useGroupPage,
  useJoinGroup,
  useGroupPrayerEvents,
  useLeaveGroup,
  usePrayForGroupRequest,
  useRemoveGroupMember,
  useSetGroupMemberRole,
  type GroupCardFragment,
  type GroupPageQuery,
  type GroupPrayerFragment,
} from "./groups.generated.ts";
// Only members read a chat: visitors and people looking for a group never load its code.
const GroupChat = lazy(async () => ({ default: (await import("./GroupChat.tsx")).GroupChat }));
import "./groups.css";

const TYPES: GroupType[] = ["SMALL_GROUP", "CLASS", "MINISTRY", "TEAM"];
const DAYS: Weekday[] = ["SUNDAY", "MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY"];

function GroupCard({ g }: { g: GroupCardFragment }) {
  const { t } = useI18n();
  return (
    <li className="group-card">
      {g.photoUrl && (
        <img className="group-card__photo" src={g.photoUrl} alt="" width={640} height={360} loading="lazy" />
      )}
      <div className="group-card__body">
        <p className="group-card__type">{t(`groups.type.${g.type}`)}</p>
        <h2 className="group-card__name">
          <Link to={g.path}>{g.name}</Link>
        </h2>
        {g.schedule && <p className="group-card__schedule">{g.schedule}</p>}
        <p className="group-card__meta">
          {g.locationDisplay !== "HIDDEN" && g.area && <span>{g.area}</span>}
          {g.leaderNames.length > 0 && <span>{t("groups.ledBy", { names: g.leaderNames.join(", ") })}</span>}
          {g.isFull && <strong className="group-flag">{t("groups.full")}</strong>}
        </p>
      </div>
    </li>
  );
}

/** /groups: the finder (public groups, members-only ones too for members), by type, day and area. */
export function GroupsPage() {
  const i18n = useI18n();
  const { t } = i18n;
  usePageTitle(t("groups.title"));
  const [params, setParams] = useSearchParams();
  const type = (params.get("type") || null) as GroupType | null;
  const day = (params.get("day") || null) as Weekday | null;
  const area = params.get("area") ?? "";
  const [areaDraft, setAreaDraft] = useState(area);
  const filter = { type, meetingDay: day, area: area || null };
  const { data, loading, error, fetchMore } = useGroupFinder({
    variables: { filter },
    fetchPolicy: "cache-and-network",
  });
  const set = (key: string, value: string | null) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  };
  const groups = data?.groups.edges.map((e) => e.node) ?? [];
  return (
    <div className="container page groups-page">
      <h1>{t("groups.title")}</h1>
      <p className="lead">{t("groups.intro")}</p>
      <form
        className="groups-filters"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          set("area", areaDraft.trim() || null);
        }}
      >
        <SelectField
          label={t("groups.filter.type")}
          value={type ?? ""}
          onChange={(e) => set("type", e.target.value || null)}
        >
          <option value="">{t("groups.filter.any")}</option>
          {TYPES.map((value) => (
            <option key={value} value={value}>
              {t(`groups.type.${value}`)}
            </option>
          ))}
        </SelectField>
        <SelectField
          label={t("groups.filter.day")}
          value={day ?? ""}
          onChange={(e) => set("day", e.target.value || null)}
        >
          <option value="">{t("groups.filter.any")}</option>
          {DAYS.map((value) => (
            <option key={value} value={value}>
              {t(`groups.day.${value}`)}
            </option>
          ))}
        </SelectField>
        <TextField
          label={t("groups.filter.area")}
          value={areaDraft}
          maxLength={LIMITS.groupAreaMax}
          onChange={(e) => setAreaDraft(e.target.value)}
        />
        <button type="submit" className="button">
          {t("groups.filter.apply")}
        </button>
      </form>
      {error && <Alert kind="error">{handleError(error, i18n).message}</Alert>}
      {loading && !data ? (
        <Loading />
      ) : groups.length === 0 ? (
        <p className="groups-empty">{t("groups.none")}</p>
      ) : (
        <ul className="group-grid" data-ready="true">
          {groups.map((g) => (
            <GroupCard key={g.id} g={g} />
          ))}
        </ul>
      )}
      {data?.groups.pageInfo.hasNextPage && (
        <button
          type="button"
          className="button button--ghost"
          onClick={() => void fetchMore({ variables: { after: data.groups.pageInfo.endCursor } })}
        >
          {t("groups.more")}
        </button>
      )}
    </div>
  );
}

type Group = NonNullable<GroupPageQuery["group"]>;

function JoinPanel({ group, refetch }: { group: Group; refetch: () => Promise<unknown> }) {
  const i18n = useI18n();
  const { t } = i18n;
  const shell = useAppShell();
  const [join, joining] = useJoinGroup();
  const [leave, leaving] = useLeaveGroup();
  const [message, setMessage] = useState("");
  const [problem, setProblem] = useState<UiError | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const viewer = shell.data?.viewer;
  if (!viewer) {
    return (
      <p className="group-join">
        <Link to={`/login?next=${encodeURIComponent(`/groups/${group.slug}`)}`}>
          {t("groups.signInToJoin")}
        </Link>
      </p>
    );
  }
  async function run(action: () => Promise<unknown>, success: string) {
    setProblem(null);
    try {
      await action();
      setDone(success);
      await refetch();
    } catch (error) {
      setProblem(handleError(error, i18n));
    }
  }
  if (group.myMembership) {
    return (
      <div className="group-join">
        {done && <Alert kind="success">{done}</Alert>}
        <p>{group.myMembership.role === "LEADER" ? t("groups.youLead") : t("groups.youAreMember")}</p>
        {problem && <Alert kind="error">{problem.message}</Alert>}
        <button
          type="button"
          className="button button--ghost"
          disabled={leaving.loading}
          onClick={() => void run(() => leave({ variables: { groupId: group.id } }), t("groups.left"))}
        >
          {t("groups.leave")}
        </button>
      </div>
    );
  }
  if (group.myPendingRequest) return <Alert kind="info">{done ?? t("groups.requestPending")}</Alert>;
  if (group.joinPolicy === "CLOSED") return <p className="group-join">{t("groups.closed")}</p>;
  if (group.isFull)
    return (
      <p className="group-join">
        <strong className="group-flag">{t("groups.full")}</strong> {t("groups.fullHint")}
      </p>
    );
  function submit(event: FormEvent) {
    event.preventDefault();
    void run(
      () => join({ variables: { groupId: group.id, message: message.trim() || null } }),
      group.joinPolicy === "OPEN" ? t("groups.joined") : t("groups.requestSent"),
    );
  }
  return (
    <form className="group-join" onSubmit={submit}>
      {done && <Alert kind="success">{done}</Alert>}
      {problem && <Alert kind="error">{problem.message}</Alert>}
      {group.joinPolicy === "REQUEST" && (
        <TextAreaField
          label={t("groups.requestMessage")}
          value={message}
          maxLength={LIMITS.groupJoinMessageMax}
          optionalText={t("common.optional")}
          error={problem?.fieldErrors.message}
          onChange={(e) => setMessage(e.target.value)}
        />
      )}
      <button type="submit" className="button" disabled={joining.loading}>
        {group.joinPolicy === "OPEN" ? t("groups.join") : t("groups.askToJoin")}
      </button>
    </form>
  );
}

function LeaderTools({ group, refetch }: { group: Group; refetch: () => Promise<unknown> }) {
  const i18n = useI18n();
  const { t } = i18n;
  const [decide] = useDecideJoinRequest();
  const [sendMail, mailing] = useEmailGroup();
  const [saveDetails, saving] = useUpdateGroupDetails();
  const [description, setDescription] = useState(group.description);
  const [schedule, setSchedule] = useState(group.schedule);
  const [subject, setSubject] = useState("");
  const [body, setBody] = useState("");
  const [problem, setProblem] = useState<UiError | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  async function decideRequest(id: string, approve: boolean) {
    setProblem(null);
    try {
      await decide({ variables: { id, approve } });
      setNotice(approve ? t("groups.approved") : t("groups.declined"));
      await refetch();
    } catch (error) {
      setProblem(handleError(error, i18n));
    }
  }
  async function details(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    try {
      await saveDetails({ variables: { id: group.id, input: { description, schedule } } });
      setNotice(t("groups.detailsSaved"));
      await refetch();
    } catch (error) {
      setProblem(handleError(error, i18n));
    }
  }
  async function mail(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    try {
      const result = await sendMail({ variables: { groupId: group.id, subject, body } });
      setNotice(t("groups.mailSent", { count: result.data?.emailGroup ?? 0 }));
      setSubject("");
      setBody("");
    } catch (error) {
      setProblem(handleError(error, i18n));
    }
  }
  return (
    <section className="group-section" aria-labelledby="group-requests">
      <h2 id="group-requests">{t("groups.requests")}</h2>
      {notice && <Alert kind="success">{notice}</Alert>}
      {problem && !Object.keys(problem.fieldErrors).length && <Alert kind="error">{problem.message}</Alert>}
      {!group.can.manageMembers ? null : group.pendingRequests.length === 0 ? (
        <p>{t("groups.noRequests")}</p>
      ) : (
        <ul className="group-requests">
          {group.pendingRequests.map((r) => (
            <li key={r.id} className="group-request">
              <strong>{r.person?.displayName ?? t("groups.someone")}</strong>
              {r.message && <p>{r.message}</p>}
              <button type="button" className="button" onClick={() => void decideRequest(r.id, true)}>
                {t("groups.approve")}
              </button>{" "}
              <button
                type="button"
                className="button button--ghost"
                onClick={() => void decideRequest(r.id, false)}
              >
                {t("groups.decline")}
              </button>
            </li>
          ))}
        </ul>
      )}
      {group.can.manageMembers && <AddMember group={group} refetch={refetch} onAdded={setNotice} />}
      {group.can.edit && (
        <details className="group-mail">
          <summary>{t("groups.editDetails")}</summary>
          <form onSubmit={(e) => void details(e)}>
            <TextField
              label={t("groups.schedule")}
              value={schedule}
              maxLength={LIMITS.groupScheduleMax}
              error={problem?.fieldErrors.schedule}
              onChange={(e) => setSchedule(e.target.value)}
            />
            <TextAreaField
              label={t("groups.aboutMarkdown")}
              value={description}
              maxLength={LIMITS.markdownMax}
              error={problem?.fieldErrors.description}
              onChange={(e) => setDescription(e.target.value)}
            />
            <button type="submit" className="button" disabled={saving.loading}>
              {t("groups.saveDetails")}
            </button>
          </form>
        </details>
      )}
      {group.can.manageMembers && (
        <details className="group-mail">
          <summary>{t("groups.emailGroup")}</summary>
          <form onSubmit={(e) => void mail(e)}>
            <TextField
              label={t("groups.emailSubject")}
              value={subject}
              maxLength={LIMITS.groupEmailSubjectMax}
              required
              error={problem?.fieldErrors.subject}
              onChange={(e) => setSubject(e.target.value)}
            />
            <TextAreaField
              label={t("groups.emailBody")}
              value={body}
              maxLength={LIMITS.groupEmailBodyMax}
              required
              error={problem?.fieldErrors.body}
              onChange={(e) => setBody(e.target.value)}
            />
            <button type="submit" className="button" disabled={mailing.loading}>
              {t("groups.emailSend")}
            </button>
          </form>
        </details>
      )}
    </section>
  );
}

/**
 * Leaders: add a member. The candidates are the people the leader may find in the directory (the
 * gateway answers with what the leader's rules allow); one click adds them.
 */
function AddMember({
  group,
  refetch,
  onAdded,
}: {
  group: Group;
  refetch: () => Promise<unknown>;
  onAdded(message: string): void;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const [search, setSearch] = useState("");
  const [submitted, setSubmitted] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const candidates = useGroupMemberCandidates({
    variables: { search: submitted },
    skip: submitted.length < 2,
    fetchPolicy: "network-only",
  });
  const [add, adding] = useAddGroupMember();
  const inGroup = new Set((group.roster ?? []).map((m) => m.person?.id).filter(Boolean));
  const people = (candidates.data?.directory.edges ?? []).flatMap((e) => e.node.members);
  async function addPerson(personId: string, name: string) {
    setProblem(null);
    try {
      await add({ variables: { groupId: group.id, personId } });
      onAdded(t("groups.memberAdded", { name }));
      await refetch();
    } catch (error) {
      setProblem(handleError(error, i18n).message);
    }
  }
  return (
    <details className="group-mail">
      <summary>{t("groups.addMember")}</summary>
      <form
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setSubmitted(search.trim());
        }}
      >
        <TextField
          label={t("groups.addMemberSearch")}
          hint={t("groups.addMemberHint")}
          value={search}
          maxLength={LIMITS.searchMax}
          onChange={(e) => setSearch(e.target.value)}
        />
        <button type="submit" className="button button--ghost">
          {t("groups.addMemberFind")}
        </button>
      </form>
      {problem && <Alert kind="error">{problem}</Alert>}
      {submitted.length >= 2 && !candidates.loading && people.length === 0 && (
        <p>{t("groups.addMemberNone")}</p>
      )}
      {people.length > 0 && (
        <ul className="group-requests">
          {people.map((p) => (
            <li key={p.id} className="group-request">
              <strong>{p.displayName}</strong>{" "}
              {inGroup.has(p.id) ? (
                <span>{t("groups.addMemberAlready")}</span>
              ) : (
                <button
                  type="button"
                  className="button button--small"
                  disabled={adding.loading}
                  onClick={() => void addPerson(p.id, p.displayName)}
                >
                  {t("groups.addMemberButton", { name: p.displayName })}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}

/** One of the group's prayer requests, with "I prayed". */
function GroupPrayerItem({ request }: { request: GroupPrayerFragment }) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const [prayFor, praying] = usePrayForGroupRequest();
  const [problem, setProblem] = useState<string | null>(null);
  const when = dateTimeFormat(locale, { dateStyle: "medium" });
  return (
    <li className="group-request">
      <strong>{request.authorName ?? t("prayer.anonymous")}</strong>{" "}
      <time dateTime={request.created}>{when.format(new Date(request.created))}</time>
      <p>{request.body}</p>
      {request.status === "ANSWERED" && request.answerNote && (
        <p>
          <strong>{t("prayer.praiseReport")}</strong> {request.answerNote}
        </p>
      )}
      {problem && <Alert kind="error">{problem}</Alert>}
      <button
        type="button"
        className="button button--small button--ghost"
        disabled={request.prayedToday || praying.loading}
        onClick={() =>
          void prayFor({ variables: { id: request.id } }).catch((error: unknown) =>
            setProblem(handleError(error, i18n).message),
          )
        }
      >
        {request.prayedToday ? t("groups.prayedToday") : t("groups.iPrayed")}
      </button>{" "}
      <span>{t("groups.prayedCount", { count: request.prayedCount })}</span>
    </li>
  );
}

/** The group's prayer requests (its members only) and "Ask the group to pray". */
function GroupPrayer({ group, refetch }: { group: Group; refetch: () => Promise<unknown> }) {
  const i18n = useI18n();
  const { t } = i18n;
  const [ask, asking] = useAskGroupToPray();
  const [body, setBody] = useState("");
  const [anonymous, setAnonymous] = useState(false);
  const [problem, setProblem] = useState<UiError | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const requests = group.prayerRequests.edges.map((e) => e.node);
  // Requests approved, answered or removed while the page is open show without a reload (members).
  useGroupPrayerEvents({
    variables: { groupId: group.id },
    skip: !group.myMembership,
    onData: () => void refetch(),
  });
  async function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    setNotice(null);
    try {
      const result = await ask({ variables: { groupId: group.id, body, anonymous } });
      setBody("");
      setNotice(
        result.data?.submitPrayerRequest.status === "PENDING"
          ? t("groups.prayerPending")
          : t("groups.prayerShared"),
      );
      await refetch();
    } catch (error) {
      setProblem(handleError(error, i18n));
    }
  }
  return (
    <section className="group-section" aria-labelledby="group-prayer">
      <h2 id="group-prayer">{t("groups.prayer")}</h2>
      {requests.length === 0 ? (
        <p>{t("groups.prayerNone")}</p>
      ) : (
        <ul className="group-requests">
          {requests.map((r) => (
            <GroupPrayerItem key={r.id} request={r} />
          ))}
        </ul>
      )}
      {group.can.askForPrayer && (
        <details className="group-mail">
          <summary>{t("groups.askToPray")}</summary>
          <form onSubmit={(e) => void submit(e)}>
            {notice && <Alert kind="success">{notice}</Alert>}
            {problem && !Object.keys(problem.fieldErrors).length && (
              <Alert kind="error">{problem.message}</Alert>
            )}
            <TextAreaField
              label={t("groups.prayerBody")}
              value={body}
              minLength={LIMITS.prayerBodyMin}
              maxLength={LIMITS.prayerBodyMax}
              required
              error={problem?.fieldErrors.body}
              onChange={(e) => setBody(e.target.value)}
            />
            <CheckboxField
              label={t("groups.prayerAnonymous")}
              checked={anonymous}
              onChange={(e) => setAnonymous(e.target.checked)}
            />
            <button type="submit" className="button" disabled={asking.loading}>
              {t("groups.prayerSubmit")}
            </button>
          </form>
        </details>
      )}
    </section>
  );
}

function Roster({ group, refetch }: { group: Group; refetch: () => Promise<unknown> }) {
  const i18n = useI18n();
  const { t } = i18n;
  const [setRole] = useSetGroupMemberRole();
  const [remove] = useRemoveGroupMember();
  const [problem, setProblem] = useState<string | null>(null);
  if (!group.roster) {
    return (
      <section className="group-section" aria-labelledby="group-roster">
        <h2 id="group-roster">{t("groups.roster")}</h2>
        <p>{group.myMembership ? t("groups.rosterLeadersOnly") : t("groups.rosterMembersOnly")}</p>
      </section>
    );
  }
  async function act(run: () => Promise<unknown>) {
    setProblem(null);
    try {
      await run();
      await refetch();
    } catch (error) {
      setProblem(handleError(error, i18n).message);
    }
  }
  return (
    <section className="group-section" aria-labelledby="group-roster">
      <h2 id="group-roster">{t("groups.roster")}</h2>
      {problem && <Alert kind="error">{problem}</Alert>}
      <ul className="group-roster">
        {group.roster.map((m) => (
          <li key={m.id} className="group-roster__member">
            <span className="group-roster__name">
              {m.person?.displayName ?? t("groups.someone")}
              {m.role === "LEADER" && <span className="group-flag">{t("groups.leader")}</span>}
            </span>
            {m.person && (m.person.emails.length > 0 || m.person.phones.length > 0) && (
              <span className="group-roster__contact">
                {m.person.emails.map((e) => (
                  <a key={e.id} href={`mailto:${e.email}`}>
                    {e.email}
                  </a>
                ))}
                {m.person.phones.map((p) => (
                  <a key={p.id} href={`tel:${p.number}`}>
                    {p.number}
                  </a>
                ))}
              </span>
            )}
            {group.can.manageMembers && !m.isMe && (
              <span className="group-roster__actions">
                <button
                  type="button"
                  className="button button--small button--ghost"
                  onClick={() =>
                    void act(() =>
                      setRole({
                        variables: { memberId: m.id, role: m.role === "LEADER" ? "MEMBER" : "LEADER" },
                      }),
                    )
                  }
                >
                  {m.role === "LEADER" ? t("groups.makeMember") : t("groups.makeLeader")}
                </button>
                <button
                  type="button"
                  className="button button--small button--ghost"
                  onClick={() => void act(() => remove({ variables: { memberId: m.id } }))}
                >
                  {t("groups.remove")}
                </button>
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** /groups/:slug: about, schedule, place, leaders, joining, roster, events, chat and the leaders' tools. */
export function GroupPage() {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const { slug = "" } = useParams();
  const { data, loading, error, refetch } = useGroupPage({
    variables: { slug },
    fetchPolicy: "cache-and-network",
  });
  const group = data?.group ?? null;
  usePageTitle(group?.name ?? null);
  if (loading && !data) return <Loading />;
  if (error)
    return (
      <div className="container page">
        <Alert kind="error">{handleError(error, i18n).message}</Alert>
      </div>
    );
  if (!group) return <NotFoundPage />;
  const where = group.address ?? (group.locationDisplay !== "HIDDEN" ? group.area : null);
  return (
    <div className="container page group-page" data-ready="true">
      <p className="group-card__type">{t(`groups.type.${group.type}`)}</p>
      <h1>{group.name}</h1>
      {group.photoUrl && (
        <img className="group-page__photo" src={group.photoUrl} alt="" width={640} height={360} />
      )}
      <dl className="group-facts">
        {group.schedule && (
          <>
            <dt>{t("groups.schedule")}</dt>
            <dd>{group.schedule}</dd>
          </>
        )}
        {where && (
          <>
            <dt>{t("groups.where")}</dt>
            <dd>{where}</dd>
          </>
        )}
        {group.leaderNames.length > 0 && (
          <>
            <dt>{t("groups.leaders")}</dt>
            <dd>{group.leaderNames.join(", ")}</dd>
          </>
        )}
        <dt>{t("groups.members")}</dt>
        <dd>
          {group.capacity > 0
            ? t("groups.countOf", { count: group.memberCount, capacity: group.capacity })
            : t("groups.count", { count: group.memberCount })}
        </dd>
      </dl>
      <JoinPanel group={group} refetch={refetch} />
      {group.descriptionHtml && (
        <section className="group-section" aria-labelledby="group-about">
          <h2 id="group-about">{t("groups.about")}</h2>
          <RichText html={group.descriptionHtml} />
        </section>
      )}
      {group.events.length > 0 && (
        <section className="group-section" aria-labelledby="group-events">
          <h2 id="group-events">{t("groups.events")}</h2>
          <ul className="group-events">
            {group.events.map((e) => (
              <li key={e.id}>
                <Link to={e.path}>{e.title}</Link> <span>{formatWhen(e.startsAt, locale)}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {(group.can.manageMembers || group.can.edit) && <LeaderTools group={group} refetch={refetch} />}
      {(group.myMembership || group.can.manageMembers) && <Roster group={group} refetch={refetch} />}
      {(group.can.askForPrayer || group.prayerRequests.edges.length > 0) && (
        <GroupPrayer group={group} refetch={refetch} />
      )}
      {group.can.readChat && (
        <Suspense fallback={<Loading />}>
          <GroupChat groupId={group.id} unread={group.unreadCount} canPost={group.can.postMessage} />
        </Suspense>
      )}
    </div>
  );
}
