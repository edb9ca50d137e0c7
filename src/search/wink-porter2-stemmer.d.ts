// The package ships no types: its one export stems one lowercase English word.
declare module "wink-porter2-stemmer" {
  export default function stem(word: string): string;
}
