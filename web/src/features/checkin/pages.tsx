import { useEffect, useMemo, useState, type ReactNode } from "react";
import { ApolloProvider } from "@apollo/client/react";
import { Link, useParams } from "react-router";
import {
  useCheckinMine,
  useCheckinPageParent,
  useCheckinRegisterStation,
  useCheckinThisStation,
  useCheckinRoomLive,
  useCheckinRoomRoster,
  useCheckinServeInRoom,
  useCheckinStationCheckOut,
  useCheckinStationSessions,
  type CheckinCardFragment,
} from "./checkin.generated.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { formatWhen } from "../../i18n/format.ts";
import { Alert } from "../../components/Alert.tsx";
import { Loading } from "../../components/Loading.tsx";
import { handleError } from "../../lib/handleError.ts";
import { usePageTitle } from "../../lib/usePageTitle.ts";
import { CheckinStation, type StationSettings } from "./Station.tsx";
import {
  createStationClient,
  forgetStationToken,
  rememberedStation,
  rememberStation,
  saveStationToken,
  stationToken,
} from "./station-client.ts";
import { TextField } from "../../components/Field.tsx";
import { useAbilities } from "../../lib/abilities.ts";
import { CHECKIN_LIMITS } from "@flock/shared/limits-features";
import { HouseholdCheckin } from "./Household.tsx";
import { useAppShell } from "../../gql/AppShell.generated.ts";
import { accessibleBrandColor } from "../../lib/color.ts";
import { useChurchZone } from "./zone.ts";
import "./checkin.css";

/*
 * Child check-in (issue 28): the station (/checkin: a browser on a tablet, laptop or phone, in staffed
 * or self mode), a room's list for those serving in it (/checkin/rooms/:sessionId/:roomId, live), and a
 * parent's pickup codes (/me/checkins).
 */

/**
 * A station is a kiosk: the church's name and nothing of the site around it (no menu a child could
 * wander off through, no footer), with a way back for staff.
 */
function KioskFrame({ children }: { children: ReactNode }) {
  const { t } = useI18n();
  const shell = useAppShell();
  const brand = accessibleBrandColor(shell.data?.settings.brandColor ?? "");
  useEffect(() => {
    document.documentElement.style.setProperty("--brand", brand);
  }, [brand]);
  return (
    <div className="checkin-kiosk">
      <header className="checkin-kiosk__header">
        <strong>{shell.data?.settings.churchName}</strong>
        <Link to="/" className="button button--ghost button--small">
          {t("checkin.station.exit")}
        </Link>
      </header>
      <main id="main" className="checkin-kiosk__main">
        {children}
      </main>
    </div>
  );
}

/**
 * The check-in station. A device registered with a pairing code acts as that station (its own GraphQL
 * client, carrying the station's credential); a signed-in operator's browser may serve as one too;
 * anyone else is asked for a pairing code.
 */
export function CheckinStationPage() {
  const [token, setToken] = useState(stationToken);
  const client = useMemo(() => (token ? createStationClient(token) : null), [token]);
  const forget = () => {
    forgetStationToken();
    setToken(null);
  };
  return (
    <KioskFrame>
      {client ? (
        <ApolloProvider client={client}>
          <RegisteredStation onForget={forget} />
        </ApolloProvider>
      ) : (
        <UnregisteredStation
          onRegistered={(next) => {
            saveStationToken(next);
            setToken(next);
          }}
        />
      )}
    </KioskFrame>
  );
}

const MODES = { STAFFED: "staffed", SELF: "self" } as const;
const LABELS = { LABEL_62MM: "62mm", LABEL_225IN: "225in", NONE: "none" } as const;

/** A registered device: the station's own settings; a credential no longer valid (removed, re-paired) is forgotten. */
function RegisteredStation({ onForget }: { onForget: () => void }) {
  const i18n = useI18n();
  const { data, loading, error } = useCheckinThisStation({ fetchPolicy: "cache-and-network" });
  const refused = !!error && handleError(error, i18n).code === "UNAUTHENTICATED";
  const gone = (!loading && data && !data.thisCheckinStation) || refused;
  useEffect(() => {
    if (gone) onForget();
  }, [gone, onForget]);
  const station = data?.thisCheckinStation;
  // Offline from the start (a reload without network): the settings last seen on this device.
  const remembered = useMemo(rememberedStation, []);
  const seen = station && {
    name: station.name,
    mode: MODES[station.mode],
    labelSize: LABELS[station.labelSize],
  };
  const settings: StationSettings | null = seen
    ? { ...seen, onForget }
    : remembered && { ...remembered, onForget };
  useEffect(() => {
    if (station)
      rememberStation({
        name: station.name,
        mode: MODES[station.mode],
        labelSize: LABELS[station.labelSize],
      });
  }, [station]);
  if (!settings)
    return loading || gone ? (
      <Loading />
    ) : (
      <Alert kind="error">{error && handleError(error, i18n).message}</Alert>
    );
  return <StationSessions station={settings} />;
}

/** No station credential: an operator may use this browser as a station; anyone may register it with a code. */
function UnregisteredStation({ onRegistered }: { onRegistered: (token: string) => void }) {
  const { t } = useI18n();
  const can = useAbilities();
  const shell = useAppShell();
  // Who is signed in decides between the two: wait for it rather than flash the code form at staff.
  if (shell.loading && !shell.data) return <Loading />;
  if (can.operateCheckin)
    return (
      <>
        <StationSessions station={null} />
        <details className="checkin-station__register">
          <summary>{t("checkin.register.asStation")}</summary>
          <RegisterStation onRegistered={onRegistered} />
        </details>
      </>
    );
  return <RegisterStation onRegistered={onRegistered} />;
}

/** Make this device a station with the pairing code staff were shown at /admin/checkin. */
function RegisterStation({ onRegistered }: { onRegistered: (token: string) => void }) {
  const i18n = useI18n();
  const { t } = i18n;
  usePageTitle(t("checkin.register.title"));
  const [code, setCode] = useState("");
  const [register, { loading }] = useCheckinRegisterStation();
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <form
      className="card checkin-register"
      onSubmit={async (event) => {
        event.preventDefault();
        setProblem(null);
        try {
          const { data } = await register({ variables: { code } });
          onRegistered(data!.registerCheckinStation.token);
        } catch (e) {
          const error = handleError(e, i18n);
          setProblem(error.fieldErrors.code ?? error.message);
        }
      }}
    >
      <h1>{t("checkin.register.title")}</h1>
      <p>{t("checkin.register.hint")}</p>
      <TextField
        label={t("checkin.register.code")}
        value={code}
        autoComplete="off"
        autoCapitalize="characters"
        maxLength={CHECKIN_LIMITS.checkinPairingInputMax}
        error={problem ?? undefined}
        onChange={(e) => setCode(e.target.value.toUpperCase())}
      />
      <button
        type="submit"
        className="button button--large"
        disabled={loading || code.replace(/[^A-Z0-9]/gi, "").length !== 8}
      >
        {t("checkin.register.submit")}
      </button>
      <p className="muted">
        <Link to="/login?next=%2Fcheckin">{t("checkin.register.staff")}</Link>
      </p>
    </form>
  );
}

function StationSessions({ station }: { station: StationSettings | null }) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const timeZone = useChurchZone();
  usePageTitle(t("checkin.station.title"));
  const { data, loading, error } = useCheckinStationSessions({ fetchPolicy: "cache-and-network" });
  const sessions = data?.checkinSessions ?? [];
  const [sessionId, setSessionId] = useState("");
  const open = sessions.filter((s) => s.isOpen);
  const session = sessions.find((s) => s.id === sessionId) ?? open[0] ?? null;
  if (loading && !data) return <Loading />;
  return (
    <div className="checkin-station">
      <h1>{station ? station.name : t("checkin.station.title")}</h1>
      {error && !data && <Alert kind="error">{handleError(error, i18n).message}</Alert>}
      {sessions.length > 0 && (
        <label className="checkin-station__session">
          <span>{t("checkin.station.session")}</span>
          <select value={session?.id ?? ""} onChange={(e) => setSessionId(e.target.value)}>
            {sessions.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name} · {formatWhen(s.startsAt, locale, { date: "short", timeZone })}
                {s.isOpen
                  ? ""
                  : ` — ${t("checkin.station.opensAt", { time: formatWhen(s.opensAt, locale, { date: "short", timeZone }) })}`}
              </option>
            ))}
          </select>
        </label>
      )}
      {!session || !session.isOpen ? (
        <p className="empty-state">{t("checkin.station.noSession")}</p>
      ) : (
        <CheckinStation key={session.id} session={session} station={station} />
      )}
    </div>
  );
}

/** Allergies, medical notes and pickup alerts, as a room reads them. */
export function CareFlags({ checkin }: { checkin: CheckinCardFragment }) {
  const { t } = useI18n();
  return (
    <>
      {checkin.allergies && (
        <span className="badge badge--danger">
          {t("checkin.station.allergy", { text: checkin.allergies })}
        </span>
      )}
      {checkin.medicalNotes && (
        <span className="badge badge--warn">{t("checkin.room.medical", { text: checkin.medicalNotes })}</span>
      )}
      {checkin.notAuthorized && (
        <span className="badge badge--danger">
          {t("checkin.station.notAuthorized", { names: checkin.notAuthorized })}
        </span>
      )}
    </>
  );
}

/** A room's list for those serving in it, updated live. */
export function CheckinRoomPage() {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const timeZone = useChurchZone();
  const { sessionId = "", roomId = "" } = useParams();
  const shell = useAppShell();
  const { data, loading, error, refetch } = useCheckinRoomRoster({ variables: { sessionId, roomId } });
  const forbidden = !!error && handleError(error, i18n).code === "FORBIDDEN";
  useCheckinRoomLive({
    skip: !data,
    variables: { sessionId, roomId },
    onData: () => void refetch().catch(() => undefined),
  });
  const [serve, serving] = useCheckinServeInRoom();
  const [page] = useCheckinPageParent();
  const [checkOut] = useCheckinStationCheckOut();
  const [notice, setNotice] = useState<string | null>(null);
  const roster = data?.checkinRoster;
  usePageTitle(
    roster
      ? t("checkin.room.title", { room: roster.room.name, session: roster.session.name })
      : t("checkin.station.title"),
  );
  if (loading && !data) return <Loading />;
  if (forbidden || !roster)
    return (
      <div className="container page checkin-room">
        <h1>{t("checkin.station.title")}</h1>
        <p>{t("checkin.room.notServing")}</p>
        <button
          type="button"
          className="button"
          disabled={serving.loading}
          onClick={async () => {
            try {
              await serve({ variables: { sessionId, roomId } });
              await refetch();
            } catch (e) {
              setNotice(handleError(e, i18n).message);
            }
          }}
        >
          {t("checkin.room.serve")}
        </button>
        {notice && <Alert kind="error">{notice}</Alert>}
      </div>
    );
  // The caller's own place in the room (an operator may check any volunteer out, but leaves only as themself).
  const mine = roster.volunteers.find((v) => v.personId === shell.data?.viewer?.person?.id);
  return (
    <div className="container page checkin-room">
      <h1>{t("checkin.room.title", { room: roster.room.name, session: roster.session.name })}</h1>
      {notice && <Alert kind="success">{notice}</Alert>}
      <section aria-labelledby="room-children">
        <h2 id="room-children">
          {t("checkin.room.children", { count: roster.children.length })}
          {roster.room.capacity
            ? ` · ${t("checkin.room.capacity", { count: roster.children.length, capacity: roster.room.capacity })}`
            : ""}
        </h2>
        {roster.children.length === 0 ? (
          <p className="empty-state">{t("checkin.room.empty")}</p>
        ) : (
          <ul className="checkin-room__list">
            {roster.children.map((child) => (
              <li key={child.id} className="checkin-room__child">
                <div>
                  <strong>{child.name}</strong> <span className="checkin-code">{child.code}</span>{" "}
                  {child.firstTime && (
                    <span className="badge badge--neutral">{t("checkin.room.firstTime")}</span>
                  )}
                  <div className="checkin-room__flags">
                    <CareFlags checkin={child} />
                  </div>
                </div>
                {child.can.page && (
                  <button
                    type="button"
                    className="button button--small"
                    onClick={async () => {
                      await page({ variables: { checkinId: child.id } });
                      setNotice(t("checkin.room.paged", { name: child.name }));
                    }}
                  >
                    {t("checkin.room.page")}
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="room-volunteers">
        <h2 id="room-volunteers">{t("checkin.room.volunteers", { count: roster.volunteers.length })}</h2>
        <ul className="checkin-room__names">
          {roster.volunteers.map((v) => (
            <li key={v.id}>{v.name}</li>
          ))}
        </ul>
        {mine && (
          <button
            type="button"
            className="button button--ghost"
            onClick={async () => {
              await checkOut({ variables: { input: { id: mine.id } } });
              await refetch().catch(() => undefined);
            }}
          >
            {t("checkin.room.leave")}
          </button>
        )}
      </section>
      {roster.checkedOut.length > 0 && (
        <section aria-labelledby="room-out">
          <h2 id="room-out">{t("checkin.room.checkedOut", { count: roster.checkedOut.length })}</h2>
          <ul className="checkin-room__names">
            {roster.checkedOut.map((c) => (
              <li key={c.id}>
                {c.name} ·{" "}
                {c.checkedOutAt ? formatWhen(c.checkedOutAt, locale, { date: "none", timeZone }) : ""}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

/** A parent's pickup codes today (/me/checkins). */
export function MyCheckinsPage() {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const timeZone = useChurchZone();
  usePageTitle(t("checkin.mine.title"));
  const { data, loading, error, refetch } = useCheckinMine({ fetchPolicy: "cache-and-network" });
  useEffect(() => {
    const timer = setInterval(() => void refetch().catch(() => undefined), 30_000);
    return () => clearInterval(timer);
  }, [refetch]);
  if (loading && !data) return <Loading />;
  const rows = data?.myCheckins ?? [];
  return (
    <section className="checkin-mine">
      <h1>{t("checkin.mine.title")}</h1>
      {error && <Alert kind="error">{handleError(error, i18n).message}</Alert>}
      {rows.length === 0 ? (
        <p className="empty-state">{t("checkin.mine.empty")}</p>
      ) : (
        <ul className="checkin-mine__list">
          {rows.map((row) => (
            <li key={row.id} className="card">
              <strong>{row.name}</strong>
              {!row.checkedOutAt && (
                <p className="checkin-mine__code">
                  {t("checkin.mine.code")}{" "}
                  <span className="checkin-code checkin-code--large">{row.code}</span>
                </p>
              )}
              <p>
                {row.checkedOutAt
                  ? t("checkin.mine.out", {
                      time: formatWhen(row.checkedOutAt, locale, { date: "none", timeZone }),
                    })
                  : t("checkin.mine.in", {
                      room: row.room.name,
                      time: formatWhen(row.checkedInAt, locale, { date: "none", timeZone }),
                    })}
              </p>
              <p className="muted">{row.session.name}</p>
            </li>
          ))}
        </ul>
      )}
      <HouseholdCheckin />
    </section>
  );
}
