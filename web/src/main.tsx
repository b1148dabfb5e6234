import { StrictMode, startTransition } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/App.tsx";
import { preloadFirstPage } from "./app/routes.tsx";
import { AppShellDocument } from "./gql/AppShell.generated.ts";
import { createApolloClient } from "./lib/apollo.ts";
import "./styles/global.css";

const client = createApolloClient();
// The shell's query (settings, viewer) leaves now, not once React has rendered the shell and
// subscribed: every page waits for it, and the first render of a throttled phone took hundreds of
// milliseconds (Lighthouse LCP). The shell's useQuery finds it in flight or answered.
void client.query({ query: AppShellDocument }).catch(() => undefined); // an error: the shell's own query shows it
preloadFirstPage(window.location.pathname);

// The first render is a transition: React renders it in slices and yields to the browser between
// them, instead of one long task that blocks input on a slow phone (Lighthouse's Total Blocking Time).
startTransition(() => {
  createRoot(document.getElementById("root")!).render(
    <StrictMode>
      <App client={client} />
    </StrictMode>,
  );
});
