import { useState, type FormEvent } from "react";
import { Link, useSearchParams } from "react-router";
import {
  useAdminCheckin,
  useAdminCreateCheckinRoom,
  useAdminCreateCheckinSession,
  useAdminDeleteCheckinSession,
  useAdminUpdateCheckinRoom,
  useAdminUpdateCheckinSession,
  type AdminCheckinRoomRowFragment,
  type AdminCheckinSessionRowFragment,
} from "./AdminCheckin.generated.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { formatWhen } from "../../../i18n/format.ts";
import { Alert, type Notice } from "../../../components/Alert.tsx";
import { CheckboxField, TextField } from "../../../components/Field.tsx";
import { FormActions } from "../../../components/FormActions.tsx";
import { Loading } from "../../../components/Loading.tsx";
import { DataTable, type Column } from "../../../components/staff/DataTable.tsx";
import { Drawer } from "../../../components/staff/Drawer.tsx";
import { handleError, type UiError } from "../../../lib/handleError.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { localInput, zonedToIso } from "../../../lib/zoned.ts";
import { CHECKIN_LIMITS } from "@flock/shared/limits-features";
import { useChurchZone } from "../zone.ts";
import { RoomChoices } from "./RoomChoices.tsx";
import { StationsSection } from "./Stations.tsx";
import "../../../styles/staff.css";

type Room = AdminCheckinRoomRowFragment;
type Session = AdminCheckinSessionRowFragment;

/**
 * /admin/checkin: the rooms children are checked into (ages, capacity, ratio, background checks) and
 * the sessions they are checked in for (a start and its window, the rooms open), on the shared staff
 * table; a room or session opens in the drawer (?room= / ?session=), "New …" too.
 */
export function AdminCheckinPage() {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const zone = useChurchZone();
  usePageTitle(t("admin.checkin.title"));
  const { data, loading, error, refetch } = useAdminCheckin({ fetchPolicy: "cache-and-network" });
  const [params, setParams] = useSearchParams();
  const [remove] = useAdminDeleteCheckinSession();
  const [notice, setNotice] = useState<Notice | null>(null);
  const rooms = data?.checkinRooms ?? [];
  const sessions = data?.checkinSessions ?? [];
  const openRoom = params.get("room");
  const openSession = params.get("session");
  const open = (key: "room" | "session", id: string) => setParams({ [key]: id });
  const close = () => setParams({});

  const ages = (room: Room) =>
    room.minAgeMonths == null && room.maxAgeMonths == null
      ? t("admin.checkin.anyAge")
      : t("admin.checkin.ageRange", { min: room.minAgeMonths ?? 0, max: room.maxAgeMonths ?? "—" });

  const roomColumns: Column<Room>[] = [
    {
      key: "name",
      header: t("admin.checkin.room.name"),
      sort: (room) => room.name,
      cell: (room) => (
        <button type="button" className="link-button" onClick={() => open("room", room.id)}>
          {room.name}
        </button>
      ),
    },
    { key: "ages", header: t("admin.checkin.room.ages"), sort: (r) => r.minAgeMonths ?? -1, cell: ages },
    {
      key: "capacity",
      header: t("admin.checkin.room.capacity"),
      sort: (r) => r.capacity ?? 0,
      cell: (r) => r.capacity ?? "—",
    },
    {
      key: "ratio",
      header: t("admin.checkin.room.ratio"),
      sort: (r) => r.ratio ?? 0,
      cell: (r) => r.ratio ?? "—",
    },
    {
      key: "status",
      header: t("admin.checkin.room.status"),
      sort: (r) => (r.active ? 0 : 1),
      cell: (r) => (
        <>
          <span className={`badge ${r.active ? "badge--ok" : "badge--neutral"}`}>
            {t(r.active ? "admin.checkin.room.open" : "admin.checkin.room.closed")}
          </span>{" "}
          {r.requiresClearance && (
            <span className="badge badge--warn">{t("admin.checkin.room.cleared")}</span>
          )}
        </>
      ),
    },
  ];
  const sessionColumns: Column<Session>[] = [
    {
      key: "name",
      header: t("admin.checkin.session.name"),
      sort: (s) => s.name,
      cell: (s) => (
        <button type="button" className="link-button" onClick={() => open("session", s.id)}>
          {s.name}
        </button>
      ),
    },
    {
      key: "starts",
      header: t("admin.checkin.session.starts"),
      sort: (s) => s.startsAt,
      cell: (s) => (
        <>
          {formatWhen(s.startsAt, locale, { date: "short", timeZone: zone })}{" "}
          {s.isOpen && <span className="badge badge--ok">{t("admin.checkin.session.openNow")}</span>}
        </>
      ),
    },
    {
      key: "rooms",
      header: t("admin.checkin.session.rooms"),
      cell: (s) => s.rooms.map((r) => r.name).join(", "),
    },
    {
      key: "children",
      header: t("admin.checkin.session.children"),
      sort: (s) => s.counts.reduce((sum, c) => sum + c.childrenTotal, 0),
      cell: (s) =>
        t("admin.checkin.session.childrenCount", {
          total: s.counts.reduce((sum, c) => sum + c.childrenTotal, 0),
          first: s.counts.reduce((sum, c) => sum + c.firstTime, 0),
        }),
    },
  ];

  async function removeSessions(rows: Session[]) {
    setNotice(null);
    const results = await Promise.allSettled(rows.map((s) => remove({ variables: { id: s.id } })));
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    await refetch();
    setNotice(
      failed.length
        ? { kind: "error", text: handleError(failed[0]!.reason, i18n).message }
        : { kind: "success", text: t("admin.checkin.session.removed", { count: rows.length }) },
    );
  }

  const editingRoom = openRoom === "new" ? null : (rooms.find((r) => r.id === openRoom) ?? null);
  const editingSession = openSession === "new" ? null : (sessions.find((s) => s.id === openSession) ?? null);
  return (
    <div className="page">
      <div className="page-head">
        <h1>{t("admin.checkin.title")}</h1>
        <div className="actions">
          <Link to="/checkin" className="button button--ghost">
            {t("admin.checkin.station")}
          </Link>
          <Link to="/admin/checkin/reports" className="button button--ghost">
            {t("admin.checkin.report.title")}
          </Link>
          <button type="button" className="button button--ghost" onClick={() => open("room", "new")}>
            {t("admin.checkin.room.new")}
          </button>
          <button type="button" className="button" onClick={() => open("session", "new")}>
            {t("admin.checkin.session.new")}
          </button>
        </div>
      </div>
      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      {error && <Alert kind="error">{handleError(error, i18n).message}</Alert>}
      {loading && !data ? (
        <Loading />
      ) : (
        <>
          <h2>{t("admin.checkin.sessions")}</h2>
          <DataTable
            caption={t("admin.checkin.sessions")}
            rows={sessions}
            rowKey={(s) => s.id}
            rowLabel={(s) => s.name}
            columns={sessionColumns}
            initialSort={{ key: "starts", direction: "ascending" }}
            bulkActions={[{ label: t("admin.checkin.session.remove"), run: removeSessions }]}
            empty={<p>{t("admin.checkin.session.empty")}</p>}
          />
          <h2>{t("admin.checkin.rooms")}</h2>
          <DataTable
            caption={t("admin.checkin.rooms")}
            rows={rooms}
            rowKey={(r) => r.id}
            rowLabel={(r) => r.name}
            columns={roomColumns}
            empty={<p>{t("admin.checkin.room.empty")}</p>}
          />
          <StationsSection rooms={rooms.filter((r) => r.active)} />
        </>
      )}
      <Drawer
        open={!!openRoom && (openRoom === "new" || !!editingRoom)}
        title={editingRoom ? editingRoom.name : t("admin.checkin.room.new")}
        onClose={close}
      >
        <RoomForm
          key={openRoom ?? ""}
          room={editingRoom}
          onDone={() => (close(), void refetch())}
          onCancel={close}
        />
      </Drawer>
      <Drawer
        open={!!openSession && (openSession === "new" || !!editingSession)}
        title={editingSession ? editingSession.name : t("admin.checkin.session.new")}
        onClose={close}
      >
        <SessionForm
          key={openSession ?? ""}
          session={editingSession}
          rooms={rooms.filter((r) => r.active || editingSession?.rooms.some((open) => open.id === r.id))}
          onDone={() => (close(), void refetch())}
          onCancel={close}
        />
      </Drawer>
    </div>
  );
}

const numberOrNull = (text: string) => (text.trim() === "" ? null : Number(text));

function RoomForm({ room, onDone, onCancel }: { room: Room | null; onDone(): void; onCancel(): void }) {
  const i18n = useI18n();
  const { t } = i18n;
  const [draft, setDraft] = useState({
    name: room?.name ?? "",
    minAgeMonths: room?.minAgeMonths?.toString() ?? "",
    maxAgeMonths: room?.maxAgeMonths?.toString() ?? "",
    capacity: room?.capacity?.toString() ?? "",
    ratio: room?.ratio?.toString() ?? "",
    requiresClearance: room?.requiresClearance ?? false,
    active: room?.active ?? true,
  });
  const [problem, setProblem] = useState<UiError | null>(null);
  const [create, creating] = useAdminCreateCheckinRoom();
  const [update, updating] = useAdminUpdateCheckinRoom();
  const set = <K extends keyof typeof draft>(key: K, value: (typeof draft)[K]) =>
    setDraft({ ...draft, [key]: value });
  async function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    const input = {
      name: draft.name,
      minAgeMonths: numberOrNull(draft.minAgeMonths),
      maxAgeMonths: numberOrNull(draft.maxAgeMonths),
      capacity: numberOrNull(draft.capacity),
      ratio: numberOrNull(draft.ratio),
      requiresClearance: draft.requiresClearance,
      active: draft.active,
    };
    try {
      if (room) await update({ variables: { id: room.id, input } });
      else await create({ variables: { input } });
      onDone();
    } catch (caught) {
      setProblem(handleError(caught, i18n));
    }
  }
  const errors = problem?.fieldErrors ?? {};
  // noValidate: the gateway's field errors are shown on the fields, in the app's words and language.
  return (
    <form className="form" onSubmit={(e) => void submit(e)} noValidate>
      {problem && <Alert kind="error">{problem.message}</Alert>}
      <TextField
        label={t("admin.checkin.room.name")}
        value={draft.name}
        maxLength={CHECKIN_LIMITS.checkinRoomNameMax}
        error={errors.name}
        onChange={(e) => set("name", e.target.value)}
      />
      <div className="form__row">
        <TextField
          label={t("admin.checkin.room.minAge")}
          type="number"
          min={0}
          max={CHECKIN_LIMITS.checkinAgeMonthsMax}
          value={draft.minAgeMonths}
          error={errors.minAgeMonths}
          onChange={(e) => set("minAgeMonths", e.target.value)}
        />
        <TextField
          label={t("admin.checkin.room.maxAge")}
          type="number"
          min={0}
          max={CHECKIN_LIMITS.checkinAgeMonthsMax}
          value={draft.maxAgeMonths}
          error={errors.maxAgeMonths}
          onChange={(e) => set("maxAgeMonths", e.target.value)}
        />
      </div>
      <div className="form__row">
        <TextField
          label={t("admin.checkin.room.capacity")}
          hint={t("admin.checkin.room.emptyNoLimit")}
          type="number"
          min={1}
          max={CHECKIN_LIMITS.checkinRoomCapacityMax}
          value={draft.capacity}
          error={errors.capacity}
          onChange={(e) => set("capacity", e.target.value)}
        />
        <TextField
          label={t("admin.checkin.room.ratio")}
          hint={t("admin.checkin.room.emptyNoLimit")}
          type="number"
          min={1}
          max={CHECKIN_LIMITS.checkinRoomRatioMax}
          value={draft.ratio}
          error={errors.ratio}
          onChange={(e) => set("ratio", e.target.value)}
        />
      </div>
      <CheckboxField
        label={t("admin.checkin.room.requiresClearance")}
        checked={draft.requiresClearance}
        onChange={(e) => set("requiresClearance", e.target.checked)}
      />
      <CheckboxField
        label={t("admin.checkin.room.active")}
        checked={draft.active}
        onChange={(e) => set("active", e.target.checked)}
      />
      <FormActions
        submitLabel={t(room ? "admin.checkin.save" : "admin.checkin.room.create")}
        busy={creating.loading || updating.loading}
        onCancel={onCancel}
      />
    </form>
  );
}

function SessionForm({
  session,
  rooms,
  onDone,
  onCancel,
}: {
  session: Session | null;
  rooms: Room[];
  onDone(): void;
  onCancel(): void;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const zone = useChurchZone();
  const [draft, setDraft] = useState({
    name: session?.name ?? "",
    startsAt: session ? localInput(session.startsAt, zone) : "",
    opensMinutes: String(session?.opensMinutes ?? 30),
    closesMinutes: String(session?.closesMinutes ?? 15),
    roomIds: session?.rooms.map((r) => r.id) ?? rooms.filter((r) => r.active).map((r) => r.id),
  });
  const [problem, setProblem] = useState<UiError | null>(null);
  const [create, creating] = useAdminCreateCheckinSession();
  const [update, updating] = useAdminUpdateCheckinSession();
  const set = <K extends keyof typeof draft>(key: K, value: (typeof draft)[K]) =>
    setDraft({ ...draft, [key]: value });
  async function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    const startsAt = zonedToIso(draft.startsAt, zone);
    if (!startsAt) {
      setProblem({
        code: "BAD_USER_INPUT",
        message: t("admin.checkin.session.needStart"),
        fieldErrors: { startsAt: t("admin.checkin.session.needStart") },
      });
      return;
    }
    const input = {
      name: draft.name,
      startsAt,
      opensMinutes: Number(draft.opensMinutes),
      closesMinutes: Number(draft.closesMinutes),
      roomIds: draft.roomIds,
      eventId: session?.eventId ?? null,
    };
    try {
      if (session) await update({ variables: { id: session.id, input } });
      else await create({ variables: { input } });
      onDone();
    } catch (caught) {
      setProblem(handleError(caught, i18n));
    }
  }
  const errors = problem?.fieldErrors ?? {};
  return (
    <form className="form" onSubmit={(e) => void submit(e)} noValidate>
      {problem && <Alert kind="error">{problem.message}</Alert>}
      <TextField
        label={t("admin.checkin.session.name")}
        value={draft.name}
        maxLength={CHECKIN_LIMITS.checkinSessionNameMax}
        error={errors.name}
        onChange={(e) => set("name", e.target.value)}
      />
      <TextField
        label={t("admin.checkin.session.starts")}
        type="datetime-local"
        value={draft.startsAt}
        error={errors.startsAt}
        onChange={(e) => set("startsAt", e.target.value)}
      />
      <div className="form__row">
        <TextField
          label={t("admin.checkin.session.opens")}
          type="number"
          min={0}
          max={CHECKIN_LIMITS.checkinWindowMinutesMax}
          value={draft.opensMinutes}
          error={errors.opensMinutes}
          onChange={(e) => set("opensMinutes", e.target.value)}
        />
        <TextField
          label={t("admin.checkin.session.closes")}
          type="number"
          min={0}
          max={CHECKIN_LIMITS.checkinWindowMinutesMax}
          value={draft.closesMinutes}
          error={errors.closesMinutes}
          onChange={(e) => set("closesMinutes", e.target.value)}
        />
      </div>
      <RoomChoices
        legend={t("admin.checkin.session.rooms")}
        rooms={rooms}
        chosen={draft.roomIds}
        error={errors.roomIds}
        onChange={(roomIds) => set("roomIds", roomIds)}
      />
      <FormActions
        submitLabel={t(session ? "admin.checkin.save" : "admin.checkin.session.create")}
        busy={creating.loading || updating.loading}
        onCancel={onCancel}
      />
    </form>
  );
}
