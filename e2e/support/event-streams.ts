import type { Page } from "playwright-core";

// The app's event streams (graphql-sse over fetch) relayed inside the page: what they carried, how many
// are open, and a way to break them as a lost network does. Chromium's offline emulation
// (context.setOffline) leaves an open stream alone, so a test of a dropped connection needs this.

interface RecordedStream {
  text: string;
  open: boolean;
  drop(): void;
}

/**
 * Every server-sent event the page receives, as text. recordGraphqlResponses passes the event streams
 * through (they never end); this relays them inside the page instead, so subscription payloads can be
 * searched too, a dropped stream is seen, and the test can drop them the way a lost network does (the
 * app reads a network error; the browser closes the connection). Installed before the first navigation.
 */
export async function recordEventStreams(
  page: Page,
): Promise<{ texts(): Promise<string[]>; openCount(): Promise<number>; drop(): Promise<void> }> {
  await page.addInitScript(() => {
    const store: RecordedStream[] = [];
    (window as unknown as { __eventStreams?: RecordedStream[] }).__eventStreams = store;
    const original = window.fetch.bind(window);
    window.fetch = async (...args: Parameters<typeof fetch>) => {
      const response = await original(...args);
      if (!(response.headers.get("content-type") ?? "").includes("text/event-stream") || !response.body)
        return response;
      const source = response.body.getReader();
      const decoder = new TextDecoder();
      let relay!: ReadableStreamDefaultController<Uint8Array>;
      const recorded: RecordedStream = {
        text: "",
        open: true,
        drop() {
          if (!recorded.open) return;
          recorded.open = false;
          relay.error(new TypeError("network error"));
          void source.cancel().catch(() => undefined);
        },
      };
      store.push(recorded);
      const relayed = new ReadableStream<Uint8Array>({
        start(controller) {
          relay = controller;
        },
        async pull(controller) {
          const chunk = await source.read().catch((error: unknown) => ({ error }));
          if (!recorded.open) return;
          if ("error" in chunk) {
            recorded.open = false;
            controller.error(chunk.error);
          } else if (chunk.done) {
            recorded.open = false;
            controller.close();
          } else {
            recorded.text += decoder.decode(chunk.value, { stream: true });
            controller.enqueue(chunk.value);
          }
        },
        cancel(reason) {
          recorded.open = false;
          return source.cancel(reason);
        },
      });
      return new Response(relayed, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    };
  });
  const streams = () =>
    page.evaluate(() =>
      ((window as unknown as { __eventStreams?: RecordedStream[] }).__eventStreams ?? []).map(
        ({ text, open }) => ({ text, open }),
      ),
    );
  return {
    texts: async () => (await streams()).map((stream) => stream.text),
    openCount: async () => (await streams()).filter((stream) => stream.open).length,
    drop: () =>
      page.evaluate(() =>
        ((window as unknown as { __eventStreams?: RecordedStream[] }).__eventStreams ?? []).forEach(
          (stream) => stream.drop(),
        ),
      ),
  };
}
