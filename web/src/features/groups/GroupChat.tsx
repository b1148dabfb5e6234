import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { useApolloClient } from "@apollo/client/react";
import { LIMITS } from "@flock/shared/limits";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { Alert } from "../../components/Alert.tsx";
import { RichText } from "../../components/RichText.tsx";
import { TextAreaField } from "../../components/Field.tsx";
import { handleError } from "../../lib/handleError.ts";
import { formatWhen } from "../../i18n/format.ts";
import { onStreamReconnected } from "../../lib/apollo.ts";
import {
  GroupChatDocument,
  useDeleteGroupMessage,
  useEditGroupMessage,
  useGroupChat,
  useGroupChatEvents,
  useMarkGroupRead,
  usePostGroupMessage,
  type GroupMessageFieldsFragment,
} from "./groups.generated.ts";

type Message = GroupMessageFieldsFragment;
/** A message typed here and not yet stored: sending, or failed (kept with its key, so a retry is stored once). */
interface Outgoing {
  clientKey: string;
  body: string;
  status: "sending" | "failed";
}

const byTime = (a: Message, b: Message) => a.created.localeCompare(b.created) || a.id.localeCompare(b.id);
/** Catching up after a drop pages back in the API's largest pages: 40 missed messages are one request. */
const CATCH_UP_PAGE = 100;

/**
 * A group's chat: history newest at the bottom, older pages by scrolling up (keyset cursors), live
 * messages through the subscription, an outbox for what is being sent. Each message gets its key
 * when it is typed, so a double click, a retry or a resend after a dropped connection stores it once;
 * a message that could not be sent stays, marked failed, with "Retry" (and is retried when the browser
 * is back online) — never silently lost. When the event stream comes back after a drop, the chat pages
 * back from the newest message until it meets what it already showed, so nothing said meanwhile is
 * missing, and says so while it does (or that it could not).
 */
export function GroupChat({
  groupId,
  unread,
  canPost,
}: {
  groupId: string;
  unread: number;
  /** Group.can.postMessage: an archived group's chat is read-only. */
  canPost: boolean;
}) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const client = useApolloClient();
  const { data, loading, error, fetchMore } = useGroupChat({
    variables: { groupId },
    fetchPolicy: "network-only",
    // After the first answer the history changes only here (older pages, the catch-up): the app-wide
    // refetch after a reconnection would replace it with the newest page and drop what was scrolled back.
    nextFetchPolicy: "cache-only",
    notifyOnNetworkStatusChange: true,
  });
  const [live, setLive] = useState<Map<string, Message>>(new Map());
  const [removed, setRemoved] = useState<Set<string>>(new Set());
  const [outbox, setOutbox] = useState<Outgoing[]>([]);
  const [draft, setDraft] = useState("");
  const [editing, setEditing] = useState<{ id: string; body: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [post] = usePostGroupMessage();
  const [edit] = useEditGroupMessage();
  const [remove] = useDeleteGroupMessage();
  const [markRead] = useMarkGroupRead();
  const listRef = useRef<HTMLOListElement>(null);
  const topRef = useRef<HTMLLIElement>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [catchUp, setCatchUp] = useState<"done" | "running" | "failed">("done");

  const messages = useMemo(() => {
    const all = new Map<string, Message>();
    for (const edge of data?.groupMessages.edges ?? []) all.set(edge.node.id, edge.node);
    for (const [id, m] of live) all.set(id, m);
    return [...all.values()].filter((m) => !removed.has(m.id)).sort(byTime);
  }, [data, live, removed]);
  const storedKeys = useMemo(() => new Set(messages.map((m) => m.clientKey)), [messages]);
  const pending = outbox.filter((o) => !storedKeys.has(o.clientKey));
  const shown = useRef(messages);
  shown.current = messages;

  /**
   * Everything said since the newest message shown: pages back from the newest until a page reaches it.
   * Within the pages read, a message shown but no longer there was deleted meanwhile.
   */
  const catchUpNow = useCallback(async () => {
    const known = shown.current;
    const newestKnown = known[known.length - 1];
    setCatchUp("running");
    try {
      const found: Message[] = [];
      let before: string | null | undefined;
      for (;;) {
        const { data: page } = await client.query({
          query: GroupChatDocument,
          variables: { groupId, first: CATCH_UP_PAGE, before },
          fetchPolicy: "no-cache",
        });
        if (!page) throw new Error("The chat did not answer.");
        const nodes = page.groupMessages.edges.map((edge) => edge.node);
        found.push(...nodes);
        const reached = !newestKnown || nodes.some((m) => byTime(m, newestKnown) <= 0);
        if (reached || !page.groupMessages.pageInfo.hasNextPage) break;
        before = page.groupMessages.pageInfo.endCursor;
      }
      const oldest = found.reduce<Message | undefined>((a, m) => (!a || byTime(m, a) < 0 ? m : a), undefined);
      const stillThere = new Set(found.map((m) => m.id));
      const deleted = known.filter((m) => oldest && byTime(m, oldest) >= 0 && !stillThere.has(m.id));
      if (deleted.length) setRemoved((current) => new Set([...current, ...deleted.map((m) => m.id)]));
      setLive((current) => {
        const next = new Map(current);
        for (const m of found) next.set(m.id, m);
        return next;
      });
      setCatchUp("done");
    } catch {
      setCatchUp("failed");
    }
  }, [client, groupId]);

  useEffect(() => onStreamReconnected(() => void catchUpNow()), [catchUpNow]);

  useGroupChatEvents({
    variables: { groupId },
    onData: ({ data: event }) => {
      const change = event.data?.groupMessages;
      if (!change) return;
      // The gateway lost its own stream for a moment: the same catch-up as after a drop here.
      if (change.kind === "RESYNC") {
        void catchUpNow();
        return;
      }
      if (change.kind === "REMOVED" && change.id) {
        const id = change.id;
        setRemoved((current) => new Set(current).add(id));
        return;
      }
      const message = change.message;
      if (message) setLive((current) => new Map(current).set(message.id, message));
    },
  });

  // Read: on opening, and whenever messages arrive while the chat is open.
  const newest = messages[messages.length - 1]?.id;
  useEffect(() => {
    if (newest || unread > 0) void markRead({ variables: { groupId } }).catch(() => undefined);
  }, [newest, unread, groupId, markRead]);

  // Stay at the bottom when a new message arrives and the reader was already there.
  const stick = useRef(true);
  useEffect(() => {
    const list = listRef.current;
    if (list && stick.current) list.scrollTop = list.scrollHeight;
  }, [newest, pending.length]);

  const loadOlder = useCallback(async () => {
    if (!data?.groupMessages.pageInfo.hasNextPage || loadingOlder) return;
    const list = listRef.current;
    const before = list ? list.scrollHeight - list.scrollTop : 0;
    setLoadingOlder(true);
    try {
      await fetchMore({
        variables: { before: data.groupMessages.pageInfo.endCursor },
        updateQuery: (previous, { fetchMoreResult }) => ({
          groupMessages: {
            ...fetchMoreResult.groupMessages,
            edges: [...previous.groupMessages.edges, ...fetchMoreResult.groupMessages.edges],
          },
        }),
      });
      // Keep the reader's place: the older messages appear above what they were reading.
      requestAnimationFrame(() => {
        if (list) list.scrollTop = list.scrollHeight - before;
      });
    } catch (caught) {
      setProblem(handleError(caught, i18n).message);
    } finally {
      setLoadingOlder(false);
    }
  }, [data, fetchMore, loadingOlder, i18n]);

  // Infinite scroll back: reaching the top loads the previous page.
  useEffect(() => {
    const top = topRef.current;
    const list = listRef.current;
    if (!top || !list || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) void loadOlder();
      },
      { root: list },
    );
    observer.observe(top);
    return () => observer.disconnect();
  }, [loadOlder]);

  const send = useCallback(
    async (item: Outgoing) => {
      setOutbox((current) =>
        current.map((o) => (o.clientKey === item.clientKey ? { ...o, status: "sending" } : o)),
      );
      try {
        const result = await post({ variables: { groupId, body: item.body, clientKey: item.clientKey } });
        const stored = result.data?.postGroupMessage;
        if (stored) setLive((current) => new Map(current).set(stored.id, stored));
        setOutbox((current) => current.filter((o) => o.clientKey !== item.clientKey));
      } catch (caught) {
        const ui = handleError(caught, i18n);
        // Refused for good (too long, no longer a member): say why; the text stays in the outbox to copy.
        if (ui.code !== "NETWORK" && ui.code !== "SERVICE_UNAVAILABLE")
          setProblem(ui.fieldErrors.body ?? ui.message);
        setOutbox((current) =>
          current.map((o) => (o.clientKey === item.clientKey ? { ...o, status: "failed" } : o)),
        );
      }
    },
    [post, groupId, i18n],
  );

  // Back online: send again what failed (the same keys: nothing is stored twice).
  useEffect(() => {
    const retry = () => {
      for (const item of outbox) if (item.status === "failed") void send(item);
    };
    window.addEventListener("online", retry);
    return () => window.removeEventListener("online", retry);
  }, [outbox, send]);

  function submit(event?: FormEvent) {
    event?.preventDefault();
    const body = draft.trim();
    if (!body) return;
    setProblem(null);
    stick.current = true;
    const item: Outgoing = { clientKey: crypto.randomUUID(), body, status: "sending" };
    // The draft empties at once: a second click has nothing to send.
    setDraft("");
    setOutbox((current) => [...current, item]);
    void send(item);
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      // Sent, not typed: without this the emptied box kept the Enter's line break.
      event.preventDefault();
      submit();
    }
  }

  async function saveEdit(event: FormEvent) {
    event.preventDefault();
    if (!editing) return;
    try {
      const result = await edit({ variables: { id: editing.id, body: editing.body } });
      const stored = result.data?.editGroupMessage;
      if (stored) setLive((current) => new Map(current).set(stored.id, stored));
      setEditing(null);
    } catch (caught) {
      const ui = handleError(caught, i18n);
      setProblem(ui.fieldErrors.body ?? ui.message);
    }
  }

  async function deleteMessage(id: string) {
    try {
      await remove({ variables: { id } });
      setRemoved((current) => new Set(current).add(id));
    } catch (caught) {
      setProblem(handleError(caught, i18n).message);
    }
  }

  return (
    <section className="group-section group-chat" id="chat" aria-labelledby="group-chat-title">
      <h2 id="group-chat-title">{t("groups.chat")}</h2>
      {error && <Alert kind="error">{handleError(error, i18n).message}</Alert>}
      {problem && <Alert kind="error">{problem}</Alert>}
      <ol
        className="chat-messages"
        ref={listRef}
        aria-live="polite"
        aria-busy={loading}
        data-ready={data ? "true" : undefined}
        onScroll={(e) => {
          const list = e.currentTarget;
          stick.current = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
        }}
      >
        <li ref={topRef} className="chat-messages__top">
          {data?.groupMessages.pageInfo.hasNextPage ? (
            <button
              type="button"
              className="button button--small button--ghost"
              disabled={loadingOlder}
              onClick={() => void loadOlder()}
            >
              {t("groups.chat.older")}
            </button>
          ) : (
            data && <span>{t("groups.chat.start")}</span>
          )}
        </li>
        {messages.map((m) => (
          <li
            key={m.id}
            className={`chat-message${m.mine ? " chat-message--mine" : ""}`}
            data-message-id={m.id}
          >
            <p className="chat-message__meta">
              <strong>{m.authorName}</strong>{" "}
              <time dateTime={m.created}>{formatWhen(m.created, locale, { date: "numeric" })}</time>
              {m.editedAt && <span> · {t("groups.chat.edited")}</span>}
            </p>
            {editing?.id === m.id ? (
              <form onSubmit={(e) => void saveEdit(e)}>
                <TextAreaField
                  label={t("groups.chat.editLabel")}
                  hideLabel
                  value={editing.body}
                  maxLength={LIMITS.chatMessageMax}
                  onChange={(e) => setEditing({ id: m.id, body: e.target.value })}
                />
                <button type="submit" className="button button--small">
                  {t("groups.chat.save")}
                </button>{" "}
                <button
                  type="button"
                  className="button button--small button--ghost"
                  onClick={() => setEditing(null)}
                >
                  {t("groups.chat.cancel")}
                </button>
              </form>
            ) : (
              <RichText html={m.html} />
            )}
            {(m.can.edit || m.can.delete) && editing?.id !== m.id && (
              <p className="chat-message__actions">
                {m.can.edit && (
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => setEditing({ id: m.id, body: m.body })}
                  >
                    {t("groups.chat.edit")}
                  </button>
                )}
                {m.can.delete && (
                  <button type="button" className="link-button" onClick={() => void deleteMessage(m.id)}>
                    {t("groups.chat.delete")}
                  </button>
                )}
              </p>
            )}
          </li>
        ))}
        {catchUp !== "done" && (
          <li className="chat-messages__catch-up" role="status">
            {catchUp === "running" ? (
              t("groups.chat.catchingUp")
            ) : (
              <>
                {t("groups.chat.catchUpFailed")}{" "}
                <button type="button" className="link-button" onClick={() => void catchUpNow()}>
                  {t("groups.chat.catchUpRetry")}
                </button>
              </>
            )}
          </li>
        )}
        {pending.map((o) => (
          <li key={o.clientKey} className={`chat-message chat-message--mine chat-message--${o.status}`}>
            <p className="chat-message__body">{o.body}</p>
            <p className="chat-message__meta">
              {o.status === "sending" ? (
                t("groups.chat.sending")
              ) : (
                <>
                  <span role="status">{t("groups.chat.failed")}</span>{" "}
                  <button type="button" className="link-button" onClick={() => void send(o)}>
                    {t("groups.chat.retry")}
                  </button>
                </>
              )}
            </p>
          </li>
        ))}
      </ol>
      {!canPost ? (
        <p className="muted">{t("groups.chat.readOnly")}</p>
      ) : (
        <form className="chat-composer" onSubmit={submit}>
          <TextAreaField
            label={t("groups.chat.message")}
            hint={t("groups.chat.hint")}
            value={draft}
            rows={2}
            maxLength={LIMITS.chatMessageMax}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={onKeyDown}
          />
          <button type="submit" className="button" disabled={!draft.trim()}>
            {t("groups.chat.send")}
          </button>
        </form>
      )}
    </section>
  );
}
