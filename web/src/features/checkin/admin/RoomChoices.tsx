import type { ReactNode } from "react";
import { CheckboxField } from "../../../components/Field.tsx";

/** Rooms to tick (a session's open rooms, a station's location set), with the field's error. */
export function RoomChoices({
  legend,
  hint,
  rooms,
  chosen,
  error,
  onChange,
}: {
  legend: string;
  hint?: ReactNode;
  rooms: readonly { id: string; name: string }[];
  chosen: readonly string[];
  error?: string;
  onChange(roomIds: string[]): void;
}) {
  return (
    <fieldset className="card">
      <legend>{legend}</legend>
      {hint && <p className="muted">{hint}</p>}
      {error && <p className="field__error">{error}</p>}
      {rooms.map((room) => (
        <CheckboxField
          key={room.id}
          label={room.name}
          checked={chosen.includes(room.id)}
          onChange={(e) =>
            onChange(e.target.checked ? [...chosen, room.id] : chosen.filter((id) => id !== room.id))
          }
        />
      ))}
    </fieldset>
  );
}
