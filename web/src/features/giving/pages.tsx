// A member's giving pages (issue 29): their own chunk, fetched with /me/giving.
export { MyGivingPage } from "./MyGiving.tsx";
