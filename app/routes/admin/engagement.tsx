export default function AdminEngagement() {
  return <h1>Engagement</h1>;
}
