export default function Store() {
  return <h1>Store</h1>;
}
