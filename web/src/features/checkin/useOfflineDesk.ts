import { useCallback, useEffect, useRef, useState } from "react";
import {
  useCheckinHoldCodes,
  useCheckinRegulars,
  useCheckinStationCheckIn,
  type CheckinFamilyCardFragment,
} from "./checkin.generated.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { handleError } from "../../lib/handleError.ts";
import { queued, saveHeldCodes, saveQueue, type QueuedCheckin } from "./offline.ts";

/** How often a station refreshes the families it keeps for offline. */
const REGULARS_EVERY_MS = 5 * 60_000;
/** Answers that will not change if the check-in is sent again: it leaves the queue with the reason shown. */
const FINAL = new Set(["BAD_USER_INPUT", "FORBIDDEN", "NOT_FOUND"]);
/** After a call failed for want of a network, how long before the station tries again. */
const RETRY_MS = 15_000;

export interface SyncNotice {
  kind: "success" | "warning" | "error";
  text: string;
}

/** Whether the browser says it has a network (a station shows when it has not). */
function useBrowserOnline() {
  const [online, setOnline] = useState(() => navigator.onLine);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    window.addEventListener("online", update);
    window.addEventListener("offline", update);
    return () => {
      window.removeEventListener("online", update);
      window.removeEventListener("offline", update);
    };
  }, []);
  return online;
}

export interface OfflineDesk {
  /** The network is down (the browser says so, or a call just failed for want of it). */
  offline: boolean;
  /** This station queues check-ins while offline (a registered station; an operator's browser does not). */
  canQueue: boolean;
  /** The families it keeps for offline. */
  families: CheckinFamilyCardFragment[];
  /** Families a search just found (kept too, with their check-ins as they are now). */
  remember(families: CheckinFamilyCardFragment[]): void;
  /** Check-ins queued on the device, not yet sent. */
  pending: number;
  /** What the last sync did (codes replaced, children refused), until dismissed. */
  notices: SyncNotice[];
  dismiss(index: number): void;
  /** A call failed with a network error: offline until the network is back. */
  markUnreachable(): void;
  enqueue(entry: QueuedCheckin): void;
}

/**
 * A station's offline side (offline.ts): the families and codes it keeps, the queue, and the sync when
 * the network is back. Only a registered station queues: its codes are held for it.
 */
export function useOfflineDesk(sessionId: string, registered: boolean): OfflineDesk {
  const i18n = useI18n();
  const { t } = i18n;
  const browserOnline = useBrowserOnline();
  const [unreachable, setUnreachable] = useState(false);
  const offline = !browserOnline || unreachable;
  const [pending, setPending] = useState(() => queued().filter((e) => e.sessionId === sessionId).length);
  const [notices, setNotices] = useState<SyncNotice[]>([]);
  const regulars = useCheckinRegulars({
    variables: { sessionId },
    skip: !registered || offline,
    pollInterval: REGULARS_EVERY_MS,
    fetchPolicy: "cache-and-network",
  });
  // Kept through an outage: the last list loaded (the query is skipped while offline), and the families
  // found by a search since (a first-time family, one not seen for weeks), newest first.
  const loaded = useRef<CheckinFamilyCardFragment[]>([]);
  if (regulars.data) loaded.current = regulars.data.checkinRegulars;
  const [found, setFound] = useState<CheckinFamilyCardFragment[]>([]);
  const families = [
    ...found,
    ...loaded.current.filter((f) => !found.some((g) => g.householdId === f.householdId)),
  ];
  const [hold] = useCheckinHoldCodes();
  const [checkIn] = useCheckinStationCheckIn();
  const syncing = useRef(false);

  const holdCodes = useCallback(async () => {
    if (!registered) return;
    try {
      const { data } = await hold({ variables: { sessionId } });
      if (data) saveHeldCodes(sessionId, data.holdCheckinCodes);
    } catch {
      /* offline or refused: the codes held before stay */
    }
  }, [hold, registered, sessionId]);

  const sync = useCallback(async () => {
    if (syncing.current) return;
    syncing.current = true;
    const done: SyncNotice[] = [];
    let sent = 0;
    try {
      for (const entry of queued().filter((e) => e.sessionId === sessionId)) {
        let result;
        try {
          ({ data: result } = await checkIn({
            variables: {
              input: {
                sessionId: entry.sessionId,
                proposedCode: entry.proposedCode,
                offlineAt: entry.offlineAt,
                people: entry.people.map(({ personId, roomId, clientKey }) => ({
                  personId,
                  roomId,
                  clientKey,
                })),
              },
            },
          }));
        } catch (error) {
          const problem = handleError(error, i18n);
          // Not sent (no network, the server down or busy): kept, and tried again later.
          if (!FINAL.has(problem.code)) {
            if (problem.code === "NETWORK") setUnreachable(true);
            break;
          }
          done.push({
            kind: "error",
            text: t("checkin.offline.failed", { family: entry.familyName, reason: problem.message }),
          });
        }
        // Sent (or refused outright): off the queue either way, so nothing is sent twice.
        saveQueue(queued().filter((e) => e.key !== entry.key));
        if (!result) continue;
        sent += 1;
        const { code, refused } = result.checkIn;
        if (code && code !== entry.proposedCode)
          done.push({
            kind: "warning",
            text: t("checkin.offline.codeChanged", {
              names: entry.people.map((p) => p.name).join(", "),
              printed: entry.proposedCode,
              code,
            }),
          });
        for (const refusal of refused)
          done.push({
            kind: "error",
            text: t("checkin.offline.refused", {
              name: entry.people.find((p) => p.personId === refusal.personId)?.name ?? "",
              reason: i18n.has(`checkin.error.${refusal.code}`)
                ? t(`checkin.error.${refusal.code}` as "checkin.error.room_full")
                : refusal.message,
            }),
          });
      }
    } finally {
      syncing.current = false;
      setPending(queued().filter((e) => e.sessionId === sessionId).length);
    }
    if (sent) done.unshift({ kind: "success", text: t("checkin.offline.synced", { count: sent }) });
    if (done.length) setNotices((current) => [...current, ...done]);
    void holdCodes();
  }, [checkIn, holdCodes, i18n, sessionId, t]);

  const remember = useCallback(
    (latest: CheckinFamilyCardFragment[]) =>
      setFound((current) => [
        ...latest,
        ...current.filter((f) => !latest.some((g) => g.householdId === f.householdId)),
      ]),
    [],
  );
  const markUnreachable = useCallback(() => setUnreachable(true), []);

  // Hold codes while online (again now and then: a failed top-up is retried); send the queue as soon as
  // the network is back.
  useEffect(() => {
    if (offline) return;
    void holdCodes();
    if (queued().some((e) => e.sessionId === sessionId)) void sync();
    const timer = setInterval(() => void holdCodes(), REGULARS_EVERY_MS);
    return () => clearInterval(timer);
  }, [offline, holdCodes, sync, sessionId]);

  // After a failed call, try the network again now and then (the browser may not notice it is back).
  useEffect(() => {
    if (!unreachable) return;
    const timer = setTimeout(() => setUnreachable(false), RETRY_MS);
    return () => clearTimeout(timer);
  }, [unreachable]);

  return {
    offline,
    canQueue: registered,
    families,
    remember,
    pending,
    notices,
    dismiss: (index) => setNotices((current) => current.filter((_, i) => i !== index)),
    markUnreachable,
    enqueue(entry) {
      saveQueue([...queued(), entry]);
      setPending(queued().filter((e) => e.sessionId === sessionId).length);
    },
  };
}
