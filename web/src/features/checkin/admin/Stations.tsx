import { useState, type FormEvent } from "react";
import { useSearchParams } from "react-router";
import {
  useAdminCheckinStations,
  useAdminCreateCheckinStation,
  useAdminDeleteCheckinStation,
  useAdminPairCheckinStation,
  useAdminUpdateCheckinStation,
  type AdminCheckinPairingFragment,
  type AdminCheckinRoomRowFragment,
  type AdminCheckinStationRowFragment,
} from "./AdminCheckin.generated.ts";
import type { CheckinLabelSize, CheckinStationMode } from "../../../gql/types.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { formatWhen } from "../../../i18n/format.ts";
import { Alert, type Notice } from "../../../components/Alert.tsx";
import { SelectField, TextField } from "../../../components/Field.tsx";
import { FormActions } from "../../../components/FormActions.tsx";
import { DataTable, type Column } from "../../../components/staff/DataTable.tsx";
import { Drawer } from "../../../components/staff/Drawer.tsx";
import { handleError, type UiError } from "../../../lib/handleError.ts";
import { CHECKIN_LIMITS } from "@flock/shared/limits-features";
import { useChurchZone } from "../zone.ts";
import { RoomChoices } from "./RoomChoices.tsx";
import "./admin-checkin.css";

type Station = AdminCheckinStationRowFragment;
type Room = AdminCheckinRoomRowFragment;

/**
 * /admin/checkin's stations: each device that checks children in, its mode, label size and rooms, and
 * whether a device has redeemed its pairing code. Adding one (or asking a new code for a replaced
 * tablet) shows the code to type at /checkin on the device; removing one stops its device at once.
 */
export function StationsSection({ rooms }: { rooms: Room[] }) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const zone = useChurchZone();
  const { data, refetch } = useAdminCheckinStations({ fetchPolicy: "cache-and-network" });
  const [params, setParams] = useSearchParams();
  const [pairing, setPairing] = useState<AdminCheckinPairingFragment | null>(null);
  const [pair] = useAdminPairCheckinStation();
  const [remove] = useAdminDeleteCheckinStation();
  const [notice, setNotice] = useState<Notice | null>(null);
  const stations = data?.checkinStations ?? [];
  const openId = params.get("station");
  const editing = openId === "new" ? null : (stations.find((s) => s.id === openId) ?? null);
  const close = () => {
    setParams({});
    setPairing(null);
  };

  const status = (station: Station) =>
    station.pairingExpiresAt ? (
      <span className="badge badge--warn">
        {t("admin.checkin.stations.waiting", {
          time: formatWhen(station.pairingExpiresAt, locale, { date: "none", timeZone: zone }),
        })}
      </span>
    ) : station.registeredAt ? (
      <span className="badge badge--ok">
        {t("admin.checkin.stations.registered", {
          date: formatWhen(station.registeredAt, locale, { date: "short", timeZone: zone }),
        })}
      </span>
    ) : (
      <span className="badge badge--neutral">{t("admin.checkin.stations.notRegistered")}</span>
    );

  const columns: Column<Station>[] = [
    {
      key: "name",
      header: t("admin.checkin.stations.name"),
      sort: (s) => s.name,
      cell: (s) => (
        <button type="button" className="link-button" onClick={() => setParams({ station: s.id })}>
          {s.name}
        </button>
      ),
    },
    {
      key: "mode",
      header: t("admin.checkin.stations.mode"),
      sort: (s) => s.mode,
      cell: (s) => t(`admin.checkin.stations.mode.${s.mode}`),
    },
    {
      key: "rooms",
      header: t("admin.checkin.stations.rooms"),
      cell: (s) =>
        s.rooms.length ? s.rooms.map((r) => r.name).join(", ") : t("admin.checkin.stations.allRooms"),
    },
    { key: "status", header: t("admin.checkin.stations.status"), cell: status },
  ];

  async function removeStations(rows: Station[]) {
    setNotice(null);
    const results = await Promise.allSettled(rows.map((s) => remove({ variables: { id: s.id } })));
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    await refetch();
    setNotice(
      failed.length
        ? { kind: "error", text: handleError(failed[0]!.reason, i18n).message }
        : { kind: "success", text: t("admin.checkin.stations.removed", { count: rows.length }) },
    );
  }

  return (
    <section aria-labelledby="stations-heading">
      <div className="page-head">
        <h2 id="stations-heading">{t("admin.checkin.stations")}</h2>
        <button type="button" className="button button--ghost" onClick={() => setParams({ station: "new" })}>
          {t("admin.checkin.stations.new")}
        </button>
      </div>
      <p className="muted">{t("admin.checkin.stations.hint")}</p>
      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      <DataTable
        caption={t("admin.checkin.stations")}
        rows={stations}
        rowKey={(s) => s.id}
        rowLabel={(s) => s.name}
        columns={columns}
        bulkActions={[{ label: t("admin.checkin.stations.remove"), run: removeStations }]}
        empty={<p>{t("admin.checkin.stations.empty")}</p>}
      />
      <Drawer
        open={!!openId && (openId === "new" || !!editing)}
        title={editing ? editing.name : t("admin.checkin.stations.new")}
        onClose={close}
      >
        {pairing ? (
          <PairingCode pairing={pairing} onDone={close} />
        ) : (
          <>
            <StationForm
              key={openId ?? ""}
              station={editing}
              rooms={rooms}
              onCreated={(made) => {
                setPairing(made);
                void refetch();
              }}
              onSaved={() => (close(), void refetch())}
              onCancel={close}
            />
            {editing && (
              <div className="card">
                <p>{t("admin.checkin.stations.pairHint")}</p>
                <button
                  type="button"
                  className="button button--ghost"
                  onClick={async () => {
                    try {
                      const { data: paired } = await pair({ variables: { id: editing.id } });
                      setPairing(paired!.pairCheckinStation);
                      void refetch();
                    } catch (e) {
                      setNotice({ kind: "error", text: handleError(e, i18n).message });
                    }
                  }}
                >
                  {t("admin.checkin.stations.pair")}
                </button>
              </div>
            )}
          </>
        )}
      </Drawer>
    </section>
  );
}

/** The code to type on the device, big, with when it stops working. */
function PairingCode({ pairing, onDone }: { pairing: AdminCheckinPairingFragment; onDone(): void }) {
  const { t, locale } = useI18n();
  const zone = useChurchZone();
  return (
    <div className="form">
      <p>{t("admin.checkin.stations.codeFor", { name: pairing.station.name })}</p>
      <p className="station-pairing__code" data-testid="pairing-code">
        {pairing.code}
      </p>
      <p className="muted">
        {t("admin.checkin.stations.codeUntil", {
          time: formatWhen(pairing.expiresAt, locale, { date: "none", timeZone: zone }),
        })}
      </p>
      <button type="button" className="button" onClick={onDone}>
        {t("admin.checkin.stations.done")}
      </button>
    </div>
  );
}

function StationForm({
  station,
  rooms,
  onCreated,
  onSaved,
  onCancel,
}: {
  station: Station | null;
  rooms: Room[];
  onCreated(pairing: AdminCheckinPairingFragment): void;
  onSaved(): void;
  onCancel(): void;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const [draft, setDraft] = useState({
    name: station?.name ?? "",
    mode: station?.mode ?? ("SELF" as CheckinStationMode),
    labelSize: station?.labelSize ?? ("LABEL_62MM" as CheckinLabelSize),
    roomIds: station?.rooms.map((r) => r.id) ?? [],
  });
  const [problem, setProblem] = useState<UiError | null>(null);
  const [create, creating] = useAdminCreateCheckinStation();
  const [update, updating] = useAdminUpdateCheckinStation();
  const set = <K extends keyof typeof draft>(key: K, value: (typeof draft)[K]) =>
    setDraft({ ...draft, [key]: value });
  async function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    try {
      if (station) {
        await update({ variables: { id: station.id, input: draft } });
        onSaved();
      } else {
        const { data } = await create({ variables: { input: draft } });
        onCreated(data!.createCheckinStation);
      }
    } catch (caught) {
      setProblem(handleError(caught, i18n));
    }
  }
  const errors = problem?.fieldErrors ?? {};
  return (
    <form className="form" onSubmit={(e) => void submit(e)} noValidate>
      {problem && <Alert kind="error">{problem.message}</Alert>}
      <TextField
        label={t("admin.checkin.stations.name")}
        hint={t("admin.checkin.stations.nameHint")}
        value={draft.name}
        maxLength={CHECKIN_LIMITS.checkinStationNameMax}
        error={errors.name}
        onChange={(e) => set("name", e.target.value)}
      />
      <SelectField
        label={t("admin.checkin.stations.mode")}
        value={draft.mode}
        onChange={(e) => set("mode", e.target.value as CheckinStationMode)}
      >
        <option value="SELF">{t("admin.checkin.stations.mode.SELF")}</option>
        <option value="STAFFED">{t("admin.checkin.stations.mode.STAFFED")}</option>
      </SelectField>
      <SelectField
        label={t("admin.checkin.stations.labelSize")}
        value={draft.labelSize}
        onChange={(e) => set("labelSize", e.target.value as CheckinLabelSize)}
      >
        <option value="LABEL_62MM">{t("admin.checkin.stations.label.LABEL_62MM")}</option>
        <option value="LABEL_225IN">{t("admin.checkin.stations.label.LABEL_225IN")}</option>
        <option value="NONE">{t("admin.checkin.stations.label.NONE")}</option>
      </SelectField>
      <RoomChoices
        legend={t("admin.checkin.stations.rooms")}
        hint={t("admin.checkin.stations.roomsHint")}
        rooms={rooms}
        chosen={draft.roomIds}
        error={errors.roomIds}
        onChange={(roomIds) => set("roomIds", roomIds)}
      />
      <FormActions
        submitLabel={t(station ? "admin.checkin.save" : "admin.checkin.stations.create")}
        busy={creating.loading || updating.loading}
        onCancel={onCancel}
      />
    </form>
  );
}
