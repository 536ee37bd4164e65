export default function BlogPost() {
  return <h1>BlogPost</h1>;
}
