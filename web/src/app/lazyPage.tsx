import { lazy, Suspense, type ComponentType } from "react";
import { Loading } from "../components/Loading.tsx";

/** Each area is its own chunk: visitors download only the public pages. */
export function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  const Page = lazy(async () => ({ default: pick(await load()) }));
  return (
    <Suspense fallback={<Loading />}>
      <Page />
    </Suspense>
  );
}
