export default function BlogAdmin() {
  return <h1>BlogAdmin</h1>;
}
