// The harness both web apps' browser tests run in: the real stack, a real Chromium, and the calls
// the other parties (agents, staff) make outside the browser.
export { launchChromium, screenshotFolder } from './browser.ts';
export {
  apply,
  approveAndClaim,
  http,
  type Answer,
  type Application,
  type Parties,
} from './http.ts';
export { startWebStack, type WebStack, type WebStackOptions } from './stack.ts';
