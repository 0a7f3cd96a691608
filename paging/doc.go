// Package paging pages through an HTTP API by its rel="next" links (RFC
// 8288): an iterator over the pages, or over their items, with the safety
// checks an API client needs (loops, schemes, origins, credentials, page
// limits), waits for rate limits, resuming, and parallel requests for APIs
// that number their pages.
//
// # A short tour
//
// [Pages] follows rel="next" from page to page as an iterator and yields
// each page's response; [weblink.NextURL] gives the next page of one
// response. [Items] yields the items of every page instead ([JSONItems]
// decodes a JSON array), and [WaitRateLimits] makes either wait out the
// rate limits of GitHub, GitLab and Retry-After instead of failing. A
// page's body is closed when the loop body returns, so read it there; next
// links are followed on the first page's origin only, and its credentials
// are never sent to another origin:
//
//	for issue, err := range paging.Items(ctx, nil, req, paging.JSONItems[Issue],
//		paging.WaitRateLimits(10*time.Minute)) {
//		if err != nil {
//			return err
//		}
//		handle(issue)
//	}
//
// A refused page ends the loop with a [*StatusError] that carries the
// response's header and the start of its body. For long runs, share one
// [RateLimiter] between the iterations that use one token, and resume from
// [BeforeNext]'s next URL after a crash; [Parallel] requests the pages of a
// page-numbered API (one with a rel="last" link) n at a time, in order.
//
// Processes that page one API with one token share its rate limit through
// [NewSharedRateLimiter] and a [LimitStore], such as the Redis store of
// package github.com/weblinking/weblink/paging/redisstore. [Revalidate]
// keeps pages in a [PageStore] and asks for them again with conditional
// requests, so that a re-sync reads unchanged pages from the store. For
// APIs that write the next link in the body (JSON:API, HAL, OData),
// [NextInBody] reads it there and [JSONItemsAt] decodes the items.
//
// The sections below are the reference; their rules are numbered once for
// the package, and the code and tests cite them by number.
//
// # Long runs: rate limits, errors, resuming
//
//  1. With [WaitRateLimits], a refusal that says how long to wait
//     (Retry-After, or a remaining count of 0 and a reset) is waited that
//     long. A 429 that says neither, and a 403 whose body's first 2 KiB
//     hold "rate limit" (ASCII case-insensitive; also when
//     X-RateLimit-Remaining is above 0), are backed off as GitHub documents
//     for its secondary rate limits: 60 s before the first retry of that
//     page, doubled for each further such refusal of the same page (60,
//     120, 240 s...); refusals that said how long do not count. A 503
//     without Retry-After stays an error. Every wait is within maxWait and
//     the 10 retries of a page; a wait that would pass maxWait is not slept.
//     The 2 KiB read to recognise a 403 is put back: a response yielded
//     with an error reads from its first byte.
//  2. A [RateLimiter] is WaitRateLimits shared by every iteration given
//     its [RateLimiter.Option], concurrent or later: what one of them
//     learns (a Retry-After, a reset, a backoff of rule 1, a 2xx page
//     saying the limit is spent) is a time T until which the API is limited,
//     and every request of every one of them, the first included, waits
//     until T; they also take their requests from one count (rules 12 to
//     15). Each iteration's own waits still add up to at most maxWait;
//     a wait that would pass it ends the iteration at once with
//     [ErrRateLimited]. Safe for concurrent use; no goroutine is started.
//  3. A [*StatusError] carries the response's Header and the first 2 KiB
//     of its Body (nil when empty), read before the response is yielded;
//     [Pages] puts them back in front of the rest, so that resp.Body in the
//     loop still reads from byte 0 (a server that takes more than a second
//     to send them has the body cut where it was), and [Items], which closes
//     the body, leaves them in the error. A larger body costs 2 KiB, no
//     more. [StatusError.Error] shows neither: they are the peer's raw text.
//  4. Resuming: [BeforeNext] runs once the loop body has taken every item
//     of the previous page, and its next.URL is the checkpoint of a long
//     run: a new [Pages] or [Items] on a request for that URL yields the
//     rest, no item of a finished page again. The page under way when a run
//     stopped is requested again whole, so its first items come twice: make
//     what the loop body does idempotent, or commit a page's effects with
//     the checkpoint.
//  5. What a peer sends cannot stretch a run: a Retry-After or reset that
//     is negative, not a number (1e300, NaN) or past time.Duration is no
//     wait or a wait no maxWait allows (never slept); Retry-After: 0 again
//     and again ends after 10 retries of the page; the sum of one
//     iteration's waits never passes its maxWait; the body read ahead is
//     at most 2 KiB, for at most a second; every wait ends when ctx or
//     req.Context() is done.
//
// # Parallel pages
//
// [Parallel](n) lets [Pages] and [Items] request up to n pages at a time
// when an API numbers its pages, as GitHub, GitLab and json-server do, and
// still yield them one at a time, in order:
//
//  6. A series is predicted only when n > 1 and the first page has a
//     rel="last" link (whose context is the page, as for rel="next") whose
//     URL is that of the page's next link but for the value of one query
//     parameter, both values decimal integers without a sign or leading
//     zero, the next link's at most the last link's, and the next link's
//     one more than the current page's (a current URL without that
//     parameter is page 1). The URL of page k is then the next link with k
//     as that value. Anything else (no last link, a cursor, a last link on
//     another origin, scheme, host or path, two values that differ) is
//     paged one page at a time, as without Parallel.
//  7. The pages from next to last are requested with at most n in flight
//     (n above 64 is 64; a sliding window: a last page of 10^12 schedules
//     no more than n ahead) and yielded in page order; a slow page holds up its place in
//     the order, not the requests of the others. At most n responses wait,
//     unread, to be yielded, each holding its connection. The requests are
//     made by up to n goroutines, which the caller asks for by giving
//     Parallel; breaking out of the loop (or a panic in it) cancels the
//     requests in flight and closes their bodies, and no goroutine outlives
//     the iteration; a panic of the client (its RoundTripper or
//     CheckRedirect) for a page requested ahead is raised in the loop, in
//     that page's place, as one page at a time raises it. When ctx or req.Context() is done, a page received
//     but not yet yielded (its body cut) is not yielded: the context's
//     error ends the iteration in its place. A predicted page is compared with the next link of the
//     page before it as [weblink.NextURL] resolves it.
//  8. Each predicted page is checked as a followed next link is (scheme,
//     origin, loops, credentials only to req's origin; its redirects under
//     the same rules; one that leads to a page visited or requested ahead
//     ends the prediction there, as if its next link were not the one
//     predicted, so that a loop is found as one page at a time finds it),
//     and its own next link must be the URL predicted for
//     the page after it, as written. When it is not (the collection
//     changed: a new snapshot, a page that is now the last, a last page
//     that now has a next link), the pages requested after it are
//     discarded unread (requests cancelled, bodies closed, no longer
//     counted as visited, under the URL predicted nor the one BeforeNext
//     gave them) once the loop body is done with that page, whose body is
//     read whole, and paging goes on from its own next link, one page at a
//     time. The body of a predicted page that the loop body leaves unread
//     is drained as one page at a time drains it, for at most a second:
//     a drain cut short cancels the requests ahead too (they share a
//     context), which are discarded, and paging goes on from that page's
//     own next link, one page at a time. A refused page that a rate limit
//     makes Pages request again is closed undrained. A page that is not 2xx, or any other error, ends the
//     iteration in its place, as it would one page at a time.
//  9. [MaxPages](m) counts yielded pages: no page beyond m is requested.
//     With [WaitRateLimits] or a [RateLimiter], a page refused by a rate
//     limit, or a 2xx page whose remaining count is 0, pauses every request
//     not yet sent until the time the server gave (rules 1 and 2; the
//     refused page is then requested again). Requests of the iteration
//     waiting at once for the same time are charged to maxWait once: the
//     iteration's waits are the time it was paused, in all. When a pause
//     would pass maxWait, no more requests are sent, and the first page in
//     order that was refused or not sent ends the iteration with
//     [ErrRateLimited].
//  10. [BeforeNext] runs in the goroutine that ranges over the sequence,
//     for each request before it is sent, which is ahead of the loop body:
//     its prev is the latest page received in order (whose body it must not
//     read). The checkpoint from which to resume a stopped iteration is
//     therefore [NextURL] of the last page the loop body finished, not the
//     latest request BeforeNext saw.
//
// # Malformed headers
//
//  11. A page whose Link header has no usable next link ([weblink.NextURL])
//     is the last page only when the header is well-formed: when
//     [weblink.ParseResponse] reports a dropped link-value, or a target or
//     anchor that does not resolve, the broken part may have been the next
//     link, and the iteration ends with an error wrapping [ErrNextLink]
//     (and the parse error) after that page, never silently.
//
// # Rate limits shared by many iterations and processes
//
// Sharing only "refused until T" does not stop refusals: when the quota
// runs out, the other iterations already have requests on their way. What
// stops them is sharing the quota itself, as the API reports it. Every
// iteration with [WaitRateLimits] or a [RateLimiter] takes each request
// from a [LimitStore] before sending it: its own in memory, a
// RateLimiter's in memory for the iterations of one process
// ([NewRateLimiter]), or one that every process shares
// ([NewSharedRateLimiter] with the Redis store of package
// github.com/weblinking/weblink/paging/redisstore). The store's rules,
// each one atomic step:
//
//  12. Take waits while the API refuses requests (now < Until); Learned
//     keeps the later Until of the store's and the response's.
//  13. While the window's reset is ahead and its count is known, Take takes
//     one request from the count, or, at 0, waits for the reset. With no
//     count known (no response yet, or the window has reset) it lets one
//     request go at a time, the probe, until a response gives the count;
//     the others ask again every 20 ms. The probe is a lease of 30 s: a
//     process that dies with the probe out, or whose probe gets no
//     response (a network error), holds up the others for 30 s at most. After a response that gives no count (an API without these
//     fields, or a count without a reset), requests go freely until one
//     gives it.
//  14. Learned with a count: a reset a second or more after the stored one
//     (or a stored window that has reset) starts a new window with the
//     response's count; a reset a second or more before it is a past
//     window's, and its count is not taken; resets less than a second
//     apart are one window (an API that gives its reset in seconds from
//     now says a slightly different time each time), whose count becomes
//     the lower of the stored one and the response's: requests taken but
//     not yet answered stay counted, and another client of the token may
//     have spent some.
//  15. What the pager reads feeds Learned, for every response it gets: the
//     remaining count and reset of X-RateLimit-* or RateLimit-* (both
//     present: the lower count; a count past 10^9 reads as 10^9; one that
//     is not digits, -5 say, as no count), and for a refusal (rule 1) the
//     time until which it waits as Until: its Retry-After, its reset, or
//     the backoff. A count of 0 beside a usable Retry-After is not learned:
//     Retry-After wins. A 2xx page whose count is 0 makes the next request
//     wait for its reset (rule 13). So the goroutines of one process, the
//     requests of [Parallel] and, with a shared store, every process take
//     their requests from one count, and none is refused while the API
//     counts as it says.
//  16. A store error never ends paging: the iteration goes on with what its
//     process knows (the in-memory rules, fed by its own responses), asks
//     the store again for its next request, and reports the error to
//     [StoreErrors]. Each store call has the iteration's context, bounded to
//     2 s: a store that hangs is an error after it.
//  17. What a store answers is bounded as what a peer sends (rule 5): a
//     negative wait is none; a positive one is at least 10 ms, so that a
//     store saying "wait 1 ns" cannot spin the loop; every wait is charged
//     to the iteration's maxWait, and one that would pass it is not slept
//     ([ErrRateLimited]). A store that always says "wait 0" lets each
//     request go, paced by the API's responses.
//  18. Use one store (one Redis key) per API, credential and rate-limit
//     resource: an API that counts some requests apart has a limit for
//     each. GitHub names the resource of each response in
//     X-RateLimit-Resource (core, search, graphql...): a job that lists
//     issues and also searches uses two stores, as
//     "ratelimit:api.github.com:acme-sync:core" and
//     "ratelimit:api.github.com:acme-sync:search". The key names the
//     credential; it must not contain it (the token, or a URL with
//     userinfo): whoever reads the store reads its keys.
//  19. Reset times are absolute, and Take compares them with the clock of
//     the host that calls it: the hosts sharing a store must have
//     synchronised clocks (NTP). What is shared is the count, its reset and
//     Until; what is not: each iteration's maxWait and waits, the backoff
//     count of a page (rule 1), the pages visited, and [BeforeNext].
//
// # Re-syncing: conditional requests
//
// With [Revalidate], Pages keeps the pages it fetches in a [PageStore] and
// asks for them again with conditional requests (RFC 9110 §13.1), so that
// a page that has not changed is answered 304 Not Modified and read from
// the store (RFC 9111 §4.3):
//
//  20. The key of a page is its URL, without user information or fragment,
//     and a SHA-256 of the request's credentials: Authorization, Cookie,
//     Proxy-Authorization and every other field that Pages treats as one
//     (all but Accept, Accept-Encoding, Accept-Language, Cache-Control,
//     Pragma and User-Agent; the conditional fields excepted), the URL's
//     user information, and the cookies of the client's Jar. A page stored
//     with one credential is never yielded for another. Credentials are
//     never stored, nor a response's Set-Cookie. A HEAD request is neither
//     stored nor made conditional. A field that changes with every
//     request (a request id) makes every page a new key.
//  21. A GET for a stored page is sent with If-None-Match (its ETag) and
//     If-Modified-Since (its Last-Modified), unless the caller set either:
//     then it is sent as it is, and a 304 to it is a [*StatusError], as a
//     304 to any request Pages did not make conditional is.
//  22. A 304 to the validators of a stored page yields a response built
//     from the store: 200 OK, the stored body, the stored header updated
//     with the 304's fields (RFC 9111 §3.2 and §4.3.4; but for
//     Content-Length, Content-Encoding, Content-Range and ETag, which are
//     the stored body's), [Revalidated] true. The rate-limit fields
//     (X-RateLimit-*, RateLimit*, Retry-After) and Set-Cookie are the
//     304's alone, never stored ones: a stored X-RateLimit-Remaining: 0
//     makes nobody wait. A 304 from another URL than the stored page's
//     (after a redirect), naming another entity tag (weak comparison), or
//     giving a Content-Length other than the stored one (none stored: a
//     chunked 200, or a gzip one that net/http decoded, is not compared)
//     ends the iteration with an error wrapping [ErrNotModified]; the
//     stored page is not yielded.
//  23. A 200 to a GET with an ETag (an entity-tag of at most 512 bytes
//     without control bytes) or a Last-Modified (an HTTP-date), each once,
//     without Cache-Control: no-store or Vary: *, whose body is at most 8
//     MiB, is stored, under the key of the request and the URL it ended at
//     after redirects. Pages reads such a body whole before yielding the
//     page, and the body yielded reads from memory. A larger body, or one
//     whose read fails, is not stored, and the page's body reads from the
//     network as without Revalidate (the bytes read ahead first). A Vary
//     other than * is left to the server's validators: a server that varies
//     a page by a field gives each variant its own entity tag.
//  24. A page whose stored header has no next link was the last one: it is
//     requested without validators. When a collection grows past a full
//     last page, that page's body is unchanged (a 304) but its new next
//     link is not in the stored header; a 200 brings it.
//  25. [Parallel]'s predicted pages are revalidated as the others are; a
//     stored first page's rel="last" link is the stored one, and the last
//     page it predicts is requested without validators (rule 24), whose
//     next link, if the collection grew, ends the prediction (rule 8).
//  26. A store's error never ends paging: when Get fails, the request goes
//     without validators; when Put fails, the page is not stored; either
//     error goes to [StoreErrors]. So does a stored page that is not sound
//     (a URL that is not http or https, no valid validator, a body shorter
//     or longer than its stored Content-Length, a header with a control
//     byte): it is not used.
//  27. [NewMemoryStore](maxBytes) keeps pages in memory up to maxBytes in
//     all (key, URL, header and body), dropping the least recently used
//     first; a page larger than maxBytes is not stored. It is safe for
//     concurrent use.
//
// A known limitation: with [WaitRateLimits] or a [RateLimiter], a
// conditional request takes one request from the count before it is sent,
// as every request does (rule 13), and its 304 does not give it back: the
// 304's remaining count is the same window's, whose lower count is kept
// (rule 14), and a [LimitStore] has no call that returns a request. On an
// API that does not charge a 304 (GitHub, with Authorization), the count
// then falls by one for each 304 where the API's does not, and a re-sync
// whose 200s and 304s in one window pass the count the window started
// with waits for its reset while the API still has requests left (none is
// refused; the next window starts from the API's count again). A maxWait
// that covers the reset (an hour on GitHub) makes that a delay rather than
// [ErrRateLimited]; a re-sync of more pages than the window has left can
// instead run without WaitRateLimits and a RateLimiter, whose pages are
// then refused only when the API's own count is spent: the loop ends with
// the refusal's [*StatusError], and the run resumes from its checkpoint
// (rule 4) after the reset.
//
// # Next links and items in JSON bodies
//
// Many APIs write the next link in the body: [NextInBody] reads it there,
// and [JSONItemsAt] decodes the items of such a body. Both take an RFC 6901
// JSON Pointer, such as "/links/next" (JSON:API), "/_links/next/href"
// (HAL), "/@odata.nextLink" (OData 4.0, Microsoft Graph), "/@nextLink"
// (OData 4.01), "/nextLink" (Azure) or, for items, "/data", "/value",
// "/items" and "/_embedded/orders":
//
//  28. The Link header comes first: the body is read only for a 2xx page
//     whose header has no usable next link ([weblink.NextURL]). When its
//     header is malformed too (rule 11), a link in the body is followed;
//     without one, rule 11's error ends the iteration.
//  29. The value at the pointer is the next link as a string, or a link
//     object (JSON:API, HAL) whose "href" member is a non-empty string.
//     Absent (also a member on the way that is absent or null, an index
//     past the end of an array), null or "" there: the last page. Anything
//     else ends the iteration, after the page, with an error wrapping
//     [ErrNextLink] that says what the value is: a number, boolean or
//     array (HAL's array of link objects too), an object without a string
//     "href", a scalar where the pointer goes on, an empty body, a body
//     that is not JSON or that ends inside the value. Never a silent stop.
//  30. The body is read up to the end of the value at the pointer (to the
//     end of the body when there is none) and what was read is put back in
//     front of the rest: the loop body, or the decode function of [Items],
//     reads resp.Body from its first byte. At most 16 MiB is read: a body
//     in which the value has not ended by then is [ErrNextLink], never the
//     last page. The first member of a name counts (RFC 8259 §4 leaves
//     duplicates to the reader). A 204 and the answer to a HEAD request
//     have no body and no next link there.
//  31. A link from a body is resolved against the page URL, as a header
//     link is ([weblink.NextURL]), and checked as one: its scheme
//     ([ErrScheme]: a javascript: link is never requested), origin
//     ([ErrCrossOrigin]), credentials, loops ([ErrLoop]), [MaxPages],
//     [WaitRateLimits] and [BeforeNext], whose next.URL stays the
//     checkpoint to resume from (rule 4). A link longer than 64 KiB, with
//     invalid UTF-8 (or U+FFFD, which decoders put in its place) or a
//     control character, which no header link can hold, or that is not a
//     URI reference is [ErrNextLink].
//  32. A pointer is "" (the whole body) or a sequence of "/" and names, in
//     which "~0" stands for "~" and "~1" for "/" (RFC 6901 §3, §4); in an
//     array a name is an index, decimal without leading zeros, and "-" is
//     the element after the last, never there. Anything else is an error
//     that says what to write (the URI fragment form "#/links/next" is
//     written "/links/next"): [Pages] yields it before sending any request,
//     and the decode function of JSONItemsAt returns it for every page. A
//     name in an array is an error when the body is read.
//  33. The body is read as it streams, token by token (encoding/json's
//     Decoder): the members and elements before the value at the pointer
//     are skipped, not decoded into values, so that memory grows with the
//     nesting and the longest scalar, not with the page, in time linear in
//     the page. Arrays and objects nested deeper than 10 000 levels (the
//     bound of encoding/json) are an error.
//  34. [JSONItemsAt] decodes the array at the pointer one element at a time,
//     as [JSONItems] decodes a page: absent or null is no items, an empty
//     body, a 204 or the answer to a HEAD request too, and another value is
//     a [*json.UnmarshalTypeError]; the pointer "" is JSONItems. The rest of
//     the body is then read to its end and checked, as JSONItems checks
//     what follows its array.
//  35. [Parallel] does not predict links from bodies: with NextInBody, the
//     pages are requested one at a time, as without Parallel.
//
// # Errors
//
//  36. No error that [Pages] or [Items] yields shows a peer's bytes raw:
//     net/http before Go 1.26 puts a header or trailer line it rejects in
//     its error as it came, and a decode error may quote the body. Control
//     bytes, bidirectional marks and invalid UTF-8 in such a message are
//     escaped (\x1b), whatever the Go version; errors.Is and errors.As
//     still find the error behind it.
package paging
