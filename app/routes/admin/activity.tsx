export default function AdminActivity() {
  return <h1>Activity</h1>;
}
