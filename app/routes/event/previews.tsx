export default function Previews() {
  return <h1>Event badge preview</h1>;
}
