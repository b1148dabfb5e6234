import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { formatClock, rememberedPosition, rememberPosition } from "./clock.ts";

const SPEEDS = [0.75, 1, 1.25, 1.5, 1.75, 2];
const JUMP = 15;

interface AudioPlayerProps {
  sermonId: string;
  title: string;
  src: string;
  /** Known length (from the server) until the browser reads it. */
  durationSeconds: number | null;
  /** Start here (a shared link's ?t=), else where this device stopped last time. */
  startAt?: number | null;
  /** The sermon's page address, for "share from here". */
  shareUrl?: string;
}

/**
 * The sermon player: native <audio> (so seeking uses Range requests against /files) with its own
 * accessible controls: play/pause, a seek slider with spoken time, ±15 s, speed 0.75–2×, keyboard
 * (Space/K play, ←/J and →/L ±15 s, Home/End), position remembered per sermon on this device, and a
 * "share from here" link (?t=seconds).
 */
export function AudioPlayer({ sermonId, title, src, durationSeconds, startAt, shareUrl }: AudioPlayerProps) {
  const { t } = useI18n();
  const audio = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(durationSeconds ?? 0);
  const [speed, setSpeed] = useState(1);
  const [shared, setShared] = useState<string | null>(null);
  const lastSaved = useRef(0);
  const ids = useId();

  // Where to start: the link's ?t=, else the remembered position (once metadata is known).
  useEffect(() => {
    const element = audio.current;
    if (!element) return;
    const start = startAt ?? rememberedPosition(sermonId);
    const apply = () => {
      if (start > 0 && Math.abs(element.currentTime - start) > 1) element.currentTime = start;
      setTime(start > 0 ? start : element.currentTime);
    };
    if (element.readyState >= 1) apply();
    else element.addEventListener("loadedmetadata", apply, { once: true });
    setTime(start > 0 ? start : 0);
    return () => element.removeEventListener("loadedmetadata", apply);
  }, [sermonId, startAt]);

  function onTimeUpdate() {
    const element = audio.current!;
    setTime(element.currentTime);
    // Remember every few seconds, and at once after a seek (see onSeeked).
    if (Math.abs(element.currentTime - lastSaved.current) >= 5) {
      lastSaved.current = element.currentTime;
      rememberPosition(sermonId, element.ended ? 0 : element.currentTime);
    }
  }

  function toggle() {
    const element = audio.current!;
    if (element.paused) void element.play().catch(() => setPlaying(false));
    else element.pause();
  }

  function seekTo(seconds: number) {
    const element = audio.current!;
    const end = Number.isFinite(element.duration) && element.duration > 0 ? element.duration : duration;
    const next = Math.min(Math.max(0, seconds), end || seconds);
    element.currentTime = next;
    setTime(next);
  }

  function changeSpeed(value: number) {
    setSpeed(value);
    audio.current!.playbackRate = value;
  }

  async function share() {
    const at = Math.floor(audio.current?.currentTime ?? time);
    const url = new URL(shareUrl ?? window.location.href);
    url.search = at > 0 ? `?t=${at}` : "";
    const link = url.toString();
    try {
      await navigator.clipboard.writeText(link);
      setShared(t("sermons.player.shareCopied", { time: formatClock(at) }));
    } catch {
      setShared(link);
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const target = event.target as HTMLElement;
    // Let form controls (the speed menu, the slider) keep their own keys.
    if (
      target.tagName === "SELECT" ||
      (target.tagName === "INPUT" && event.key !== " " && event.key.toLowerCase() !== "k")
    )
      return;
    const key = event.key.toLowerCase();
    if (key === " " || key === "k") {
      if (target.tagName === "BUTTON" && key === " ") return; // the button handles Space itself
      event.preventDefault();
      toggle();
    } else if (key === "arrowleft" || key === "j") {
      event.preventDefault();
      seekTo((audio.current?.currentTime ?? time) - JUMP);
    } else if (key === "arrowright" || key === "l") {
      event.preventDefault();
      seekTo((audio.current?.currentTime ?? time) + JUMP);
    }
  }

  const shown = duration || durationSeconds || 0;
  return (
    <div
      className="player"
      role="group"
      aria-label={t("sermons.player.label", { title })}
      onKeyDown={onKeyDown}
    >
      <audio
        ref={audio}
        src={src}
        preload="metadata"
        onPlay={() => setPlaying(true)}
        onPause={() => {
          setPlaying(false);
          rememberPosition(sermonId, audio.current?.currentTime ?? 0);
        }}
        onEnded={() => rememberPosition(sermonId, 0)}
        onSeeked={() => {
          lastSaved.current = audio.current?.currentTime ?? 0;
          rememberPosition(sermonId, lastSaved.current);
        }}
        onTimeUpdate={onTimeUpdate}
        onLoadedMetadata={() => {
          const d = audio.current?.duration;
          if (d && Number.isFinite(d)) setDuration(d);
          if (audio.current) audio.current.playbackRate = speed;
        }}
      />
      <div className="player__controls">
        <button
          type="button"
          className="player__button"
          onClick={() => seekTo(time - JUMP)}
          aria-label={t("sermons.player.back")}
        >
          <span aria-hidden="true">↺</span> 15
        </button>
        <button
          type="button"
          className="player__button player__play"
          onClick={toggle}
          aria-label={playing ? t("sermons.player.pause") : t("sermons.player.play")}
        >
          <span aria-hidden="true">{playing ? "❚❚" : "▶"}</span>
        </button>
        <button
          type="button"
          className="player__button"
          onClick={() => seekTo(time + JUMP)}
          aria-label={t("sermons.player.forward")}
        >
          15 <span aria-hidden="true">↻</span>
        </button>
        <label className="player__speed">
          <span className="visually-hidden">{t("sermons.player.speed")}</span>
          <select value={speed} onChange={(e) => changeSpeed(Number(e.target.value))}>
            {SPEEDS.map((s) => (
              <option key={s} value={s}>
                {s}×
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="player__timeline">
        <span className="player__time" aria-hidden="true">
          {formatClock(time)}
        </span>
        <input
          id={`${ids}-seek`}
          type="range"
          className="player__seek"
          min={0}
          max={Math.max(1, Math.floor(shown))}
          step={1}
          value={Math.floor(Math.min(time, shown || time))}
          aria-label={t("sermons.player.seek")}
          aria-valuetext={t("sermons.player.position", {
            time: formatClock(time),
            total: formatClock(shown),
          })}
          onChange={(e) => seekTo(Number(e.target.value))}
        />
        <span className="player__time" aria-hidden="true">
          {formatClock(shown)}
        </span>
      </div>
      <p className="player__extras">
        <button type="button" className="button button--ghost button--small" onClick={() => void share()}>
          {t("sermons.player.share")}
        </button>
        <a className="button button--ghost button--small" href={src} download>
          {t("sermons.player.download")}
        </a>
        <span className="player__hint">{t("sermons.player.keys")}</span>
      </p>
      <p className="player__shared" role="status" aria-live="polite">
        {shared}
      </p>
    </div>
  );
}
