// What `handoff --help` and each command's `--help` print (src/cli.ts).

const COMMON_HELP = `Where the stack is:
  --data-dir DIR      the stack's DATA_DIR (default: $DATA_DIR, else <repo>/.data)
  --gateway URL       the gateway (default: $GATEWAY, else $HANDOFF_URL, else DATA_DIR/stack.json)
  -h, --help          this help`;

const STAFF_HELP = `  --staff-token JWT   a staff token (default: $STAFF, else one minted from $STAFF_JWT_SECRET or
                      DATA_DIR/dev-staff-jwt-secret)`;

export const HELP: Record<string, string> = {
  main: `handoff: the development command line of a Handoff stack (npm start).

Usage: handoff <command> [options]

Commands:
  env                 print "export GATEWAY=… MAILPIT=… STAFF=…" for the running stack (eval "$(handoff env)")
  onboard             an agent with every scope and a provider, reused while their keys work
  staff-token         mint a staff JWT from STAFF_JWT_SECRET or the stack's development secret
  staff list KIND     list what staff see: applications, payment-requests, payments, disputes,
                      deadlines, providers, audit-log (or any GET /v1/staff/<KIND> list)
  staff decide ...    approve or reject applications, payment requests, marketplace reviews;
                      confirm or fail payments; resolve disputes
  staff grant ID      set the scopes of an integration (PATCH /v1/staff/integrations/ID)
  events tail REQ     follow a request's events (long-poll GET /v1/request/REQ/events)
  test ...            test mode with the test key: scenarios, test requests, test clocks, purge

Run "handoff <command> --help" for a command's options.`,
  env: `Usage: handoff env [options]

Prints the running stack's gateway URL and Mailpit's address (its web UI and API, where every
mail the stack sends is; both from DATA_DIR/stack.json, whatever GATEWAY says) and a fresh staff
token as shell lines:
  export GATEWAY=http://127.0.0.1:8080
  export MAILPIT=http://127.0.0.1:8025
  export STAFF=eyJ…
so that eval "$(handoff env)" sets them in a shell. A stack started with SMTP_URL has no
Mailpit, and no MAILPIT line.

${COMMON_HELP}`,
  onboard: `Usage: handoff onboard [options]

Onboards a development agent with every scope over the HTTP API (apply, approve as staff, claim
the key) and a provider with a key, and prints exported shell lines for eval:
  export HANDOFF_URL=…  HANDOFF_AGENT_KEY=hk_live_…  HANDOFF_TEST_KEY=hk_test_…
  export HANDOFF_PROVIDER_KEY=hpk_live_…  STAFF_TOKEN=eyJ…
The agent is saved in DATA_DIR/dev-agent.json and reused on the next call while its keys still
work, so running it twice gives the same agent.

  --new               onboard another agent and provider even if one is saved
  --app-name NAME     the application's name, as staff see it (default "Devstack agent")
  --json              print JSON instead of shell lines
  --data-dir DIR      the stack's DATA_DIR (default: $DATA_DIR, else <repo>/.data)
  -h, --help          this help`,
  'staff-token': `Usage: handoff staff-token [options]

Prints a staff JWT (HS256, roles ["staff"]) signed with $STAFF_JWT_SECRET, or with the development
secret the stack keeps in DATA_DIR/dev-staff-jwt-secret.

  --subject SUB       the token's sub, named in the audit log (default dev-staff@handoff.local)
  --ttl SECONDS       lifetime (default 43200, 12 h)
  --data-dir DIR      the stack's DATA_DIR (default: $DATA_DIR, else <repo>/.data)
  -h, --help          this help`,
  staff: `Usage: handoff staff <list|decide|grant> …

  staff list KIND [--status S] [--limit N] [--json]
  staff decide KIND ID ACTION [--reason R] …
  staff grant INTEGRATION_ID --scopes a,b,…

Run "handoff staff list --help", "handoff staff decide --help" or "handoff staff grant --help".`,
  'staff list': `Usage: handoff staff list KIND [options]

Lists what staff see, newest first, one item per line (id, status and a summary), or the page
as JSON. KIND is one of:
  applications        GET /v1/staff/access-applications
  payment-requests    GET /v1/staff/payment-requests
  payments            GET /v1/staff/payments
  disputes            GET /v1/staff/disputes
  deadlines           GET /v1/staff/deadlines (everything waiting on a deadline, soonest first)
  providers           GET /v1/staff/providers
  audit-log           GET /v1/staff/audit-log
or any other list under /v1/staff/ (e.g. requests, integrations).

  --status S          only items in this status (where the list has the filter)
  --request REQ       only this request's items (payments)
  --limit N           page size (1-100)
  --json              print the answer as JSON
${COMMON_HELP}
${STAFF_HELP}`,
  'staff decide': `Usage: handoff staff decide KIND ID ACTION [options]

  application ID approve --scopes a,b,…     POST /v1/staff/access-applications/ID/approve
  application ID reject --reason R          POST /v1/staff/access-applications/ID/reject
  payment-request ID approve                POST /v1/staff/payment-requests/ID/approve
  payment-request ID reject --reason R      POST /v1/staff/payment-requests/ID/reject
  payment ID confirm [--reference REF]      POST /v1/staff/payments/ID/confirm
  payment ID fail --reason R                POST /v1/staff/payments/ID/fail
  marketplace REQ approve|reject [--reason R]   POST /v1/staff/requests/REQ/marketplace-review
  dispute ID customer|provider|split --reason R [--customer-share PERCENT]
                                            POST /v1/staff/disputes/ID/resolve

Prints the answer as JSON.

  --reason R          why (required to reject, fail or resolve)
  --scopes a,b,…      the scopes an approved application gets
  --reference REF     the payment's reference (confirm)
  --customer-share N  the customer's share in percent (split, 1-99)
${COMMON_HELP}
${STAFF_HELP}`,
  'staff grant': `Usage: handoff staff grant INTEGRATION_ID --scopes a,b,… [options]

Sets the scopes of every key of an integration at once (PATCH /v1/staff/integrations/ID) and prints
the integration as JSON. --scopes all grants every scope.

  --scopes a,b,…      the scopes, comma-separated, or "all"
${COMMON_HELP}
${STAFF_HELP}`,
  events: `Usage: handoff events tail REQUEST_ID [options]

Run "handoff events tail --help".`,
  'events tail': `Usage: handoff events tail REQUEST_ID [options]

Prints a request's events in sequence order, one JSON envelope a line, through the long-poll
GET /v1/request/REQUEST_ID/events?after=N&wait=S (scope requests:read and the request token).
Without --follow it prints what is there after --after and ends.

  --token HRT         the request token (default: $HANDOFF_REQUEST_TOKEN)
  --key KEY           the agent key (default: $HANDOFF_AGENT_KEY, else $HANDOFF_API_KEY, else $KEY)
  --after N           start after this sequence (default 0)
  --follow            keep waiting for new events (Ctrl-C stops)
  --until TYPE        with --follow: end after the first event of this type (e.g. job.completed)
  --wait S            seconds each poll waits, 1-25 (default 25)
${COMMON_HELP}`,
  test: `Usage: handoff test <scenarios|request|clock|purge> [options]

Test mode, with the integration's test key (hk_test_…; handoff onboard prints it as
HANDOFF_TEST_KEY): test requests that the simulated provider answers, never a real provider, real
email or real payment; test clocks that move a test request's deadlines; and, as staff, deleting
an integration's test data.

  scenarios           what the simulated provider does in each scenario
  request             create a test request (--scenario, --clock)
  clock ...           create, read, list, advance and delete test clocks
  purge               delete the integration's test data (staff)

Run "handoff test <command> --help" for its options; docs/test-mode.md has the events of each
scenario.`,
  'test scenarios': `Usage: handoff test scenarios

Lists the scenarios a test request can run (its test_scenario), with what the simulated provider
does in each; docs/test-mode.md lists the exact events each one sends.`,
  'test request': `Usage: handoff test request [options]

Creates a test request (POST /v1/ai-to-human-request with the test key) and prints it as JSON,
with its request_token.

  --scenario NAME     what the simulated provider does (default happy_path; handoff test scenarios)
  --clock CLK         attach it to a test clock (clk_…), whose advances move its deadlines
  --message TEXT      the customer's message
  --category SLUG     a service category
  --key KEY           the test key (default: $HANDOFF_TEST_KEY)
${COMMON_HELP}`,
  'test clock': `Usage: handoff test clock <create|get|list|advance|delete> [CLOCK_ID] [options]

Test clocks: a test request attached to one (handoff test request --clock) keeps its deadlines
(offer answers, milestone auto-approval, payment expiry, dispute windows) in the clock's time.
Advancing the clock fires, in order and with their events, every deadline it passes.

  create [--time T] [--name N]         a clock frozen at T (default now)
  get CLOCK_ID | list | delete CLOCK_ID
  advance CLOCK_ID --to T | --by D     move it to T, or on by D (90m, 2h, 7d)
  --key KEY           the test key (default: $HANDOFF_TEST_KEY)
${COMMON_HELP}`,
  'test purge': `Usage: handoff test purge [options]

Deletes an integration's test data as staff (DELETE /v1/staff/integrations/ID/test-data): its test
requests with everything on them, test webhook endpoints and events. Live data is untouched. Prints
what was deleted; has_more: true means call it again.

  --integration ID    the integration (default: the test key's, from GET /v1/me)
  --key KEY           the test key, to find the integration (default: $HANDOFF_TEST_KEY)
${COMMON_HELP}
${STAFF_HELP}`,
};

/** A command's options: `--name VALUE` for each of `strings`, `--name` for each of `flags`. */
