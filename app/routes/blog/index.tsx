export default function BlogIndex() {
  return <h1>BlogIndex</h1>;
}
