// Test support shared by producers' and consumers' tests (`@gw/events/testing`); no vitest import.
export { type DeadLetterObserver, observeDeadLetters } from "./dead-letters.js";
export { catalogueCost, exampleUsageFacts } from "./usage-facts.js";
