export function loader() {
  return new Response("Not ready", { status: 404 });
}
