import { StrictMode, startTransition } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/App.tsx";
import { preloadFirstPage } from "./app/routes.tsx";
import "./styles/global.css";

preloadFirstPage(window.location.pathname);

// The first render is a transition: React renders it in slices and yields to the browser between
// them, instead of one long task that blocks input on a slow phone (Lighthouse's Total Blocking Time).
startTransition(() => {
  createRoot(document.getElementById("root")!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
