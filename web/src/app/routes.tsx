import { lazy, Suspense, type ComponentType } from "react";
import { Navigate, Route, Routes } from "react-router";
import { Layout } from "../components/Layout.tsx";
import { Loading } from "../components/Loading.tsx";
import { HomePage } from "../features/home/HomePage.tsx";
import { NotFoundPage } from "../features/errors/NotFoundPage.tsx";
import { ADMIN_PERMISSIONS, RequirePermission, RequireViewer } from "./guards.tsx";

/** Each area is its own chunk: visitors download only the public pages. */
function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  const Page = lazy(async () => ({ default: pick(await load()) }));
  return (
    <Suspense fallback={<Loading />}>
      <Page />
    </Suspense>
  );
}

const auth = () => import("../features/auth/pages.tsx");
const publicContent = () => import("../features/news/public-content.tsx");
const admin = () => import("../features/admin/pages.tsx");

// Declarative routes (React Router's library mode): the data router would add ~17 KB gzip to
// every visitor's first load for loaders we don't use; data comes from Apollo.
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<HomePage />} />
        <Route path="news" element={lazyPage(publicContent, (m) => m.NewsPage)} />
        <Route path="news/:slug" element={lazyPage(publicContent, (m) => m.PostPage)} />
        <Route path="p/:slug" element={lazyPage(publicContent, (m) => m.ContentPage)} />
        <Route path="login" element={lazyPage(auth, (m) => m.SignInPage)} />
        <Route path="signup" element={lazyPage(auth, (m) => m.SignUpPage)} />
        <Route path="forgot-password" element={lazyPage(auth, (m) => m.ForgotPasswordPage)} />
        <Route path="reset-password" element={lazyPage(auth, (m) => m.ResetPasswordPage)} />
        <Route path="verify-email" element={lazyPage(auth, (m) => m.VerifyEmailPage)} />
        <Route path="me" element={<RequireViewer>{lazyPage(() => import("../features/me/MePage.tsx"), (m) => m.MePage)}</RequireViewer>} />
        <Route path="admin" element={<RequirePermission anyOf={ADMIN_PERMISSIONS}>{lazyPage(admin, (m) => m.AdminLayout)}</RequirePermission>}>
          <Route index element={<Navigate to="settings" replace />} />
          <Route path="settings" element={lazyPage(admin, (m) => m.AdminSettingsPage)} />
          <Route path="users" element={lazyPage(admin, (m) => m.AdminUsersPage)} />
        </Route>
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
