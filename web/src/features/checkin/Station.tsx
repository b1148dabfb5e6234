import { useEffect, useState, type FormEvent } from "react";
import { Link } from "react-router";
import {
  useCheckinStationAddFamily,
  useCheckinStationCheckIn,
  useCheckinStationCheckOut,
  useCheckinStationFamilies,
  type CheckinCardFragment,
  type CheckinFamilyCardFragment,
  type CheckinStationSessionsQuery,
} from "./checkin.generated.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { formatWhen } from "../../i18n/format.ts";
import { Alert } from "../../components/Alert.tsx";
import { TextField } from "../../components/Field.tsx";
import { handleError } from "../../lib/handleError.ts";
import { LIMITS } from "@flock/shared/limits";
import { CHECKIN_LIMITS } from "@flock/shared/limits-features";
import { useChurchZone } from "./zone.ts";
import { offlineCheckins, offlineCodeFor, searchOffline, type QueuedCheckin } from "./offline.ts";
import { useOfflineDesk, type OfflineDesk } from "./useOfflineDesk.ts";
import type { RememberedStation } from "./station-client.ts";

type Session = CheckinStationSessionsQuery["checkinSessions"][number];
type Family = CheckinFamilyCardFragment;
export type LabelSize = RememberedStation["labelSize"];
export type Mode = RememberedStation["mode"];
/** A registered station's settings (staff keep them at /admin/checkin); null: an operator's own browser. */
export interface StationSettings extends RememberedStation {
  onForget: () => void;
}
type DoneResult = {
  code: string | null;
  checkins: CheckinCardFragment[];
  refused: string[];
  warnings: string[];
  /** Made offline: on the device's queue until the network is back. */
  queued?: boolean;
};
/** A self station goes back to the search by itself, so the next family never sees this one's code. */
const SELF_RETURN_MS = 45_000;

/** A form submit that never reloads the page. */
const prevent = (handler: () => void) => (event: FormEvent) => {
  event.preventDefault();
  handler();
};

/** A station's own settings, kept on the device (each tablet is set up once). */
function useStationSetting<T extends string>(key: string, initial: T): [T, (value: T) => void] {
  const [value, setValue] = useState<T>(
    () => (localStorage.getItem(`flock.checkin.${key}`) as T | null) ?? initial,
  );
  return [
    value,
    (next: T) => {
      localStorage.setItem(`flock.checkin.${key}`, next);
      setValue(next);
    },
  ];
}

export function CheckinStation({ session, station }: { session: Session; station: StationSettings | null }) {
  const i18n = useI18n();
  const { t } = i18n;
  const [localMode, setMode] = useStationSetting<Mode>("mode", "staffed");
  const [localLabelSize, setLabelSize] = useStationSetting<LabelSize>("label", "62mm");
  const mode = station?.mode ?? localMode;
  const labelSize = station?.labelSize ?? localLabelSize;
  const [tab, setTab] = useState<"in" | "out">("in");
  const [search, setSearch] = useState("");
  const [query, setQuery] = useState("");
  const [adding, setAdding] = useState(false);
  /** A first-time family just added: shown at once, ready to check in. */
  const [added, setAdded] = useState<Family | null>(null);
  const [done, setDone] = useState<DoneResult | null>(null);
  const desk = useOfflineDesk(session.id, !!station);
  const families = useCheckinStationFamilies({
    skip: !query || desk.offline,
    variables: { sessionId: session.id, search: query },
    fetchPolicy: "network-only",
  });
  const networkFailed = !!families.error && handleError(families.error, i18n).code === "NETWORK";
  const latest = families.data?.checkinFamilies;
  const { remember } = desk;
  useEffect(() => {
    if (latest && station) remember(latest);
  }, [latest, remember, station]);
  const { markUnreachable } = desk;
  useEffect(() => {
    if (networkFailed) markUnreachable();
  }, [networkFailed, markUnreachable]);
  // Offline, a station finds families in the list it keeps.
  const found = desk.offline
    ? query
      ? searchOffline(desk.families, query)
      : null
    : (families.data?.checkinFamilies ?? null);
  const reset = () => {
    setSearch("");
    setQuery("");
    setDone(null);
    setAdding(false);
    setAdded(null);
  };

  if (done)
    return (
      <>
        <OfflineStatus desk={desk} />
        <Done
          result={done}
          labelSize={labelSize}
          sessionName={session.name}
          onNext={reset}
          returnAfterMs={mode === "self" ? SELF_RETURN_MS : null}
          autoPrint={!!station}
          waiting={desk.offline || desk.pending > 0}
        />
      </>
    );
  return (
    <div className={`checkin-station__body checkin-station--${mode}`}>
      <OfflineStatus desk={desk} />
      {station ? (
        <details className="checkin-station__setup">
          <summary>{t("checkin.station.registeredAs", { name: station.name })}</summary>
          <p className="muted">{t("checkin.station.registeredHint")}</p>
          <button
            type="button"
            className="button button--ghost button--small"
            onClick={() => {
              if (window.confirm(t("checkin.station.forgetConfirm"))) station.onForget();
            }}
          >
            {t("checkin.station.forget")}
          </button>
        </details>
      ) : (
        <details className="checkin-station__setup">
          <summary>{t("checkin.station.setup")}</summary>
          <label>
            <span>{t("checkin.station.mode")}</span>
            <select value={mode} onChange={(e) => setMode(e.target.value as Mode)}>
              <option value="staffed">{t("checkin.station.mode.staffed")}</option>
              <option value="self">{t("checkin.station.mode.self")}</option>
            </select>
          </label>
          <label>
            <span>{t("checkin.station.labelSize")}</span>
            <select value={labelSize} onChange={(e) => setLabelSize(e.target.value as LabelSize)}>
              <option value="62mm">{t("checkin.station.label.62mm")}</option>
              <option value="225in">{t("checkin.station.label.225in")}</option>
              <option value="none">{t("checkin.station.label.none")}</option>
            </select>
          </label>
        </details>
      )}
      {mode === "staffed" && !desk.offline && <RoomCounts session={session} />}
      <div className="checkin-station__tabs" role="tablist">
        {(["in", "out"] as const).map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={tab === name}
            className={tab === name ? "button" : "button button--ghost"}
            onClick={() => {
              setTab(name);
              reset();
            }}
          >
            {t(name === "in" ? "checkin.station.checkInTab" : "checkin.station.checkOutTab")}
          </button>
        ))}
      </div>
      <form
        className="checkin-station__search"
        onSubmit={prevent(() => {
          setAdded(null);
          setQuery(search.trim());
        })}
      >
        <TextField
          label={t("checkin.station.search")}
          hint={t("checkin.station.searchHint")}
          value={search}
          inputMode={mode === "self" ? "numeric" : "text"}
          autoComplete="off"
          maxLength={CHECKIN_LIMITS.checkinSearchMax}
          onChange={(e) => setSearch(e.target.value)}
        />
        <button type="submit" className="button" disabled={!search.trim()}>
          {t("checkin.station.find")}
        </button>
        {tab === "in" && !desk.offline && (
          <button
            type="button"
            className="button button--ghost"
            onClick={() => {
              setAdded(null);
              setAdding(true);
            }}
          >
            {t("checkin.station.newFamily")}
          </button>
        )}
      </form>
      {families.error && !networkFailed && (
        <Alert kind="error">{handleError(families.error, i18n).message}</Alert>
      )}
      {desk.offline && tab === "out" ? (
        <p className="empty-state">{t("checkin.offline.noCheckout")}</p>
      ) : adding ? (
        <NewFamily
          sessionId={session.id}
          onCancel={() => setAdding(false)}
          onAdded={(family) => {
            setAdding(false);
            setAdded(family);
          }}
        />
      ) : added ? (
        <FamilyCheckIn
          family={added}
          session={session}
          staffed={mode === "staffed"}
          desk={desk}
          onDone={setDone}
        />
      ) : (
        query &&
        found &&
        (found.length === 0 ? (
          <p className="empty-state">
            {t(desk.offline ? "checkin.offline.noFamily" : "checkin.station.noFamily")}
          </p>
        ) : (
          found.map((family) =>
            tab === "in" ? (
              <FamilyCheckIn
                key={family.householdId}
                family={family}
                session={session}
                staffed={mode === "staffed"}
                desk={desk}
                onDone={setDone}
              />
            ) : (
              <FamilyCheckOut
                key={family.householdId}
                family={family}
                staffed={mode === "staffed"}
                registered={!!station}
                onDone={() => void families.refetch()}
              />
            ),
          )
        ))
      )}
    </div>
  );
}

/** Offline: what the station does meanwhile, and what waits to be sent; then what the sync did. */
function OfflineStatus({ desk }: { desk: OfflineDesk }) {
  const { t } = useI18n();
  return (
    <div aria-live="polite">
      {desk.offline ? (
        <Alert kind="warning">
          {desk.canQueue
            ? t("checkin.offline.banner", { count: desk.pending, families: desk.families.length })
            : t("checkin.station.offline")}
        </Alert>
      ) : (
        desk.pending > 0 && <Alert kind="info">{t("checkin.offline.sending", { count: desk.pending })}</Alert>
      )}
      {desk.notices.map((notice, i) => (
        <div key={`${i}-${notice.text}`} className="checkin-station__notice">
          <Alert kind={notice.kind}>{notice.text}</Alert>
          <button
            type="button"
            className="button button--ghost button--small"
            onClick={() => desk.dismiss(i)}
          >
            {t("checkin.offline.dismiss")}
          </button>
        </div>
      ))}
    </div>
  );
}

function ageText(t: ReturnType<typeof useI18n>["t"], months: number | null | undefined) {
  if (months == null) return "";
  return t("checkin.station.age", { years: Math.floor(months / 12), months });
}

function FamilyCheckIn({
  family,
  session,
  staffed,
  desk,
  onDone,
}: {
  family: Family;
  session: Session;
  staffed: boolean;
  desk: OfflineDesk;
  onDone: (result: DoneResult) => void;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const children = family.members.filter((m) => m.ageGroup !== "ADULT");
  const [chosen, setChosen] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      children.filter((c) => !c.checkin && c.suggestedRoomId).map((c) => [c.personId, c.suggestedRoomId!]),
    ),
  );
  const [checkIn, state] = useCheckinStationCheckIn();
  const [error, setError] = useState<string | null>(null);
  const nameOf = (id: string) => children.find((c) => c.personId === id)?.name ?? "";
  /** Offline: the check-in goes on the device's queue, with a code it holds printed on the labels. */
  const queue = (people: { personId: string; roomId: string; clientKey: string }[]) => {
    const code = offlineCodeFor(family, session.id);
    if (!code) return setError(t("checkin.offline.noCodes"));
    const entry: QueuedCheckin = {
      key: crypto.randomUUID(),
      sessionId: session.id,
      familyName: family.name,
      proposedCode: code,
      offlineAt: new Date().toISOString(),
      people: people.map((p) => ({ ...p, name: nameOf(p.personId) })),
    };
    desk.enqueue(entry);
    const roomName = (id: string) => session.rooms.find((r) => r.id === id)?.name ?? "";
    onDone({
      code,
      checkins: offlineCheckins(entry, family, roomName),
      refused: [],
      warnings: [],
      queued: true,
    });
  };
  const submit = async () => {
    const people = Object.entries(chosen)
      .filter(([, roomId]) => roomId)
      .map(([personId, roomId]) => ({ personId, roomId, clientKey: crypto.randomUUID() }));
    if (!people.length) return setError(t("checkin.station.nobody"));
    if (desk.offline) {
      if (desk.canQueue) queue(people);
      else setError(t("checkin.station.offline"));
      return;
    }
    try {
      const { data } = await checkIn({ variables: { input: { sessionId: session.id, people } } });
      const result = data!.checkIn;
      onDone({
        code: result.code ?? null,
        checkins: result.checkins,
        refused: result.refused.map((r) =>
          t("checkin.station.refused", {
            name: nameOf(r.personId),
            reason: i18n.has(`checkin.error.${r.code}`)
              ? t(`checkin.error.${r.code}` as "checkin.error.room_full")
              : r.message,
          }),
        ),
        warnings: result.warnings,
      });
    } catch (e) {
      const problem = handleError(e, i18n);
      // The network dropped as the family checked in: queued like any offline check-in (the same
      // client keys, so a request that did arrive lands once).
      if (problem.code === "NETWORK" && desk.canQueue) {
        desk.markUnreachable();
        queue(people);
        return;
      }
      setError(problem.message);
    }
  };
  const count = Object.values(chosen).filter(Boolean).length;
  return (
    <form className="card checkin-family" onSubmit={prevent(() => void submit())}>
      <h2>{family.name}</h2>
      {family.notAuthorized.length > 0 && staffed && (
        <p className="badge badge--danger">
          {t("checkin.station.notAuthorized", { names: family.notAuthorized.join("; ") })}
        </p>
      )}
      <fieldset>
        <legend>{t("checkin.station.who")}</legend>
        {children.map((child) => (
          <div key={child.personId} className="checkin-family__child">
            <label className="checkin-family__pick">
              <input
                type="checkbox"
                disabled={!!child.checkin}
                checked={!!child.checkin || child.personId in chosen}
                onChange={(e) =>
                  setChosen((current) => {
                    const next = { ...current };
                    if (e.target.checked) next[child.personId] = child.suggestedRoomId ?? "";
                    else delete next[child.personId];
                    return next;
                  })
                }
              />
              <span>
                <strong>{child.name}</strong> <span className="muted">{ageText(t, child.ageMonths)}</span>
                {child.allergies && (
                  <span className="badge badge--danger">
                    {t("checkin.station.allergy", { text: child.allergies })}
                  </span>
                )}
                {child.checkin && (
                  <span className="badge badge--ok">
                    {t("checkin.station.already", { room: child.checkin.room.name })}
                  </span>
                )}
              </span>
            </label>
            {child.personId in chosen && (staffed || !child.suggestedRoomId) && (
              <label className="checkin-family__room">
                <span className="visually-hidden">{t("checkin.station.room", { name: child.name })}</span>
                <select
                  value={chosen[child.personId]}
                  aria-label={t("checkin.station.room", { name: child.name })}
                  onChange={(e) => setChosen((current) => ({ ...current, [child.personId]: e.target.value }))}
                >
                  {!chosen[child.personId] && <option value="">{t("checkin.station.noRoom")}</option>}
                  {session.rooms.map((room) => (
                    <option key={room.id} value={room.id}>
                      {room.name}
                    </option>
                  ))}
                </select>
              </label>
            )}
          </div>
        ))}
      </fieldset>
      {error && <Alert kind="error">{error}</Alert>}
      <button type="submit" className="button button--large" disabled={state.loading || count === 0}>
        {t("checkin.station.submit", { count })}
      </button>
    </form>
  );
}

function FamilyCheckOut({
  family,
  staffed,
  registered,
  onDone,
}: {
  family: Family;
  staffed: boolean;
  /** A registered station checks out with the code only; an override is a signed-in operator's. */
  registered: boolean;
  onDone: () => void;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const present = family.members.flatMap((m) =>
    m.checkin && !m.checkin.checkedOutAt && m.checkin.kind === "CHILD" ? [m.checkin] : [],
  );
  const [code, setCode] = useState("");
  const [reason, setReason] = useState("");
  const [notice, setNotice] = useState<{ kind: "success" | "error"; text: string } | null>(null);
  const [checkOut, state] = useCheckinStationCheckOut();
  const run = async (withCode: boolean) => {
    setNotice(null);
    const names: string[] = [];
    try {
      for (const checkin of present) {
        const { data } = await checkOut({
          variables: {
            input: withCode ? { id: checkin.id, code } : { id: checkin.id, overrideReason: reason },
          },
        });
        names.push(data!.checkOut.name);
      }
      setNotice({ kind: "success", text: names.map((name) => t("checkin.out.done", { name })).join(" ") });
      onDone();
    } catch (e) {
      const error = handleError(e, i18n);
      const fieldCode = Object.values(error.fieldCodes ?? {})[0] ?? "";
      setNotice({
        kind: "error",
        text:
          fieldCode && i18n.has(`checkin.error.${fieldCode}`)
            ? t(`checkin.error.${fieldCode}` as "checkin.error.wrong_code")
            : error.message,
      });
    }
  };
  return (
    <div className="card checkin-family">
      <h2>{family.name}</h2>
      {present.length === 0 ? (
        <p className="empty-state">{t("checkin.out.none")}</p>
      ) : (
        <>
          <p>
            {t("checkin.out.present")}: {present.map((c) => `${c.name} (${c.room.name})`).join(", ")}
          </p>
          <form className="checkin-station__search" onSubmit={prevent(() => void run(true))}>
            <TextField
              label={t("checkin.out.code")}
              value={code}
              autoComplete="off"
              maxLength={CHECKIN_LIMITS.checkinCodeLength}
              onChange={(e) => setCode(e.target.value.toUpperCase())}
            />
            <button
              type="submit"
              className="button"
              disabled={state.loading || code.length !== CHECKIN_LIMITS.checkinCodeLength}
            >
              {t("checkin.out.submit")}
            </button>
          </form>
          {staffed && registered && <p className="muted">{t("checkin.out.overrideAtDesk")}</p>}
          {staffed && !registered && (
            <form className="checkin-station__search" onSubmit={prevent(() => void run(false))}>
              <TextField
                label={t("checkin.out.override")}
                value={reason}
                maxLength={CHECKIN_LIMITS.checkoutReasonMax}
                onChange={(e) => setReason(e.target.value)}
              />
              <button
                type="submit"
                className="button button--ghost"
                disabled={state.loading || reason.trim().length < CHECKIN_LIMITS.checkoutReasonMin}
              >
                {t("checkin.out.overrideSubmit")}
              </button>
            </form>
          )}
        </>
      )}
      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
    </div>
  );
}

function NewFamily({
  sessionId,
  onCancel,
  onAdded,
}: {
  sessionId: string;
  onCancel: () => void;
  onAdded: (family: Family) => void;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const [adult, setAdult] = useState({ firstName: "", lastName: "", phone: "" });
  const [children, setChildren] = useState([{ firstName: "", birthDate: "", allergies: "" }]);
  const [add, state] = useCheckinStationAddFamily();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    try {
      const { data } = await add({ variables: { input: { sessionId, ...adult, children } } });
      onAdded(data!.addCheckinFamily);
    } catch (e) {
      const ui = handleError(e, i18n);
      setErrors(ui.fieldErrors);
      setError(ui.message);
    }
  };
  return (
    <form className="card checkin-family" onSubmit={prevent(() => void submit())}>
      <h2>{t("checkin.family.heading")}</h2>
      <div className="checkin-family__grid">
        <TextField
          label={t("checkin.family.firstName")}
          value={adult.firstName}
          error={errors.firstName}
          maxLength={LIMITS.personNameMax}
          onChange={(e) => setAdult({ ...adult, firstName: e.target.value })}
        />
        <TextField
          label={t("checkin.family.lastName")}
          value={adult.lastName}
          error={errors.lastName}
          maxLength={LIMITS.personNameMax}
          onChange={(e) => setAdult({ ...adult, lastName: e.target.value })}
        />
        <TextField
          label={t("checkin.family.phone")}
          type="tel"
          value={adult.phone}
          error={errors.phone}
          onChange={(e) => setAdult({ ...adult, phone: e.target.value })}
        />
      </div>
      {children.map((child, i) => (
        <fieldset key={i} className="checkin-family__grid">
          <legend>{t("checkin.family.child", { n: i + 1 })}</legend>
          <TextField
            label={t("checkin.family.childFirstName")}
            value={child.firstName}
            error={errors[`children.${i}.firstName`]}
            maxLength={LIMITS.personNameMax}
            onChange={(e) =>
              setChildren(children.map((c, j) => (j === i ? { ...c, firstName: e.target.value } : c)))
            }
          />
          <TextField
            label={t("checkin.family.birthDate")}
            type="date"
            value={child.birthDate}
            error={errors[`children.${i}.birthDate`]}
            onChange={(e) =>
              setChildren(children.map((c, j) => (j === i ? { ...c, birthDate: e.target.value } : c)))
            }
          />
          <TextField
            label={t("checkin.family.allergies")}
            value={child.allergies}
            maxLength={CHECKIN_LIMITS.allergiesMax}
            onChange={(e) =>
              setChildren(children.map((c, j) => (j === i ? { ...c, allergies: e.target.value } : c)))
            }
          />
        </fieldset>
      ))}
      {children.length < CHECKIN_LIMITS.checkinFamilyChildrenMax && (
        <button
          type="button"
          className="button button--ghost"
          onClick={() => setChildren([...children, { firstName: "", birthDate: "", allergies: "" }])}
        >
          {t("checkin.family.addChild")}
        </button>
      )}
      {error && <Alert kind="error">{error}</Alert>}
      <div className="checkin-family__actions">
        <button type="submit" className="button" disabled={state.loading}>
          {t("checkin.family.save")}
        </button>
        <button type="button" className="button button--ghost" onClick={onCancel}>
          {t("checkin.family.cancel")}
        </button>
      </div>
    </form>
  );
}

/**
 * The result: the pickup code, big, and the labels — a child label per child and one pickup tag —
 * at the station's label size. The print stylesheet (checkin.css) prints only them, one per label.
 */
function Done({
  result,
  labelSize,
  sessionName,
  onNext,
  returnAfterMs,
  autoPrint,
  waiting,
}: {
  result: DoneResult;
  labelSize: LabelSize;
  sessionName: string;
  onNext: () => void;
  returnAfterMs: number | null;
  /**
   * A registered station prints its labels as soon as they are ready: in Chrome started with
   * --kiosk-printing that is without a dialog (docs/CHECKIN.md); elsewhere the print dialog opens.
   */
  autoPrint: boolean;
  /** Check-ins are still on the device's queue (an offline result says so until they are sent). */
  waiting: boolean;
}) {
  const { t, locale } = useI18n();
  const timeZone = useChurchZone();
  useEffect(() => {
    if (returnAfterMs == null) return;
    const timer = setTimeout(onNext, returnAfterMs);
    return () => clearTimeout(timer);
  }, [returnAfterMs, onNext]);
  const children = result.checkins.filter((c) => c.kind === "CHILD");
  // The page size the printer is told: the label's own.
  useEffect(() => {
    if (labelSize === "none") return;
    const style = document.createElement("style");
    style.textContent = `@page { size: ${labelSize === "62mm" ? "62mm 40mm" : "2.25in 1.25in"}; margin: 0; }`;
    document.head.appendChild(style);
    return () => style.remove();
  }, [labelSize]);
  const printable = labelSize !== "none" && children.length > 0;
  useEffect(() => {
    if (!autoPrint || !printable) return;
    // After the labels and their page size are in the document.
    const frame = requestAnimationFrame(() => window.print());
    return () => cancelAnimationFrame(frame);
  }, [autoPrint, printable]);
  return (
    <div className="checkin-done">
      <h2>{t("checkin.station.done")}</h2>
      {result.code && (
        <p className="checkin-done__code">
          <span>{t("checkin.station.codeIs")}</span>
          <strong className="checkin-code checkin-code--large" data-testid="pickup-code">
            {result.code}
          </strong>
        </p>
      )}
      <p>{t("checkin.station.codeHint")}</p>
      {result.queued && waiting && <Alert kind="warning">{t("checkin.offline.queued")}</Alert>}
      {result.refused.map((text) => (
        <Alert key={text} kind="error">
          {text}
        </Alert>
      ))}
      {result.warnings.map((text) => (
        <Alert key={text} kind="warning">
          {t("checkin.station.warning", { room: text })}
        </Alert>
      ))}
      {labelSize !== "none" && children.length > 0 && (
        <div
          className={`checkin-labels checkin-labels--${labelSize}`}
          aria-label={t("checkin.station.print")}
        >
          {children.map((child) => (
            <article key={child.id} className="checkin-label" aria-label={t("checkin.label.child")}>
              <strong className="checkin-label__name">{child.name}</strong>
              <span className="checkin-label__room">{child.room.name}</span>
              <span className="checkin-label__code">{child.code}</span>
              {child.allergies && <span className="checkin-label__allergy">⚠ {child.allergies}</span>}
              <span className="checkin-label__time">
                {sessionName} · {formatWhen(child.checkedInAt, locale, { date: "none", timeZone })}
              </span>
            </article>
          ))}
          <article className="checkin-label checkin-label--parent" aria-label={t("checkin.label.parent")}>
            <span className="checkin-label__code">{result.code}</span>
            <span>{children.map((c) => c.name).join(", ")}</span>
            <span className="checkin-label__time">{t("checkin.label.pickup")}</span>
          </article>
        </div>
      )}
      <div className="checkin-family__actions">
        {labelSize !== "none" && children.length > 0 && (
          <button type="button" className="button" onClick={() => window.print()}>
            {t("checkin.station.print")}
          </button>
        )}
        <button type="button" className="button button--ghost" onClick={onNext}>
          {t("checkin.station.next")}
        </button>
      </div>
    </div>
  );
}

/** Staffed stations: each room's children, volunteers and places left, linking to the room's list. */
function RoomCounts({ session }: { session: Session }) {
  const { t } = useI18n();
  if (!session.counts.length) return null;
  return (
    <details className="checkin-station__rooms">
      <summary>{t("checkin.station.rooms")}</summary>
      <ul>
        {session.counts.map((count) => {
          const room = session.rooms.find((r) => r.id === count.room.id);
          return (
            <li key={count.room.id}>
              <Link to={`/checkin/rooms/${session.id}/${count.room.id}`}>{room?.name}</Link>{" "}
              {t("checkin.station.roomCount", {
                children: count.children,
                volunteers: count.volunteers,
                left: count.placesLeft ?? -1,
              })}
            </li>
          );
        })}
      </ul>
    </details>
  );
}
