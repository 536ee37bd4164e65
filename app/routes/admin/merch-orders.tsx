export default function MerchOrders() {
  return <h1>MerchOrders</h1>;
}
