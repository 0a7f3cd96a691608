package paging

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/internal/quote"
	"github.com/weblinking/weblink/internal/weborigin"
)

// Parallel makes [Pages] and [Items] request up to n pages at a time when
// the API numbers its pages, and still yield them in page order.
//
// An n below 2 means one page at a time, the same as not giving Parallel;
// an n above 64 means 64. Rules 6 to 10 say what is predicted and how.
//
// Paging by links is sequential by nature: each page names the next. But
// many APIs that send Link headers number their pages and also send a
// rel="last" link (GitHub, GitLab, json-server): once the first page is in,
// the URLs of all the others are known. When the first page's next and last
// links differ only in the decimal value of one query parameter, and the
// next link's value is one more than the first page's own (a first URL
// without that parameter is page 1), Pages requests the pages from next to
// last with at most n requests in flight, and yields them in order. When no
// such pair of links is there (cursor paging, or a last link that is not a
// page number of the same series), paging is sequential, as without
// Parallel.
//
// Every predicted page is checked as a followed next link is, and its own
// next link must be the one predicted; when it is not (the collection
// changed while paging), the pages requested after it are discarded and
// paging goes on one page at a time (see rule 8). [MaxPages],
// [WaitRateLimits] and a [RateLimiter] hold as one page at a time (see
// rule 9).
//
// Parallel runs up to n goroutines of its own, which send the requests in
// flight and which the caller asks for by giving it; they end before the
// iteration does (also when the loop body breaks, which cancels the
// requests in flight). At most n responses wait to be yielded; their
// bodies are not read until then, so each holds its connection: give the
// client's transport a MaxIdleConnsPerHost of at least n (net/http's
// default is 2) to reuse them.
//
// [BeforeNext] runs ahead of the loop body, and must not read its prev's
// body; the checkpoint to resume from is then the last page finished (see
// rule 10).
//
// Many APIs ask clients not to send concurrent requests with one
// credential (GitHub's REST API does, and counts them against a secondary
// rate limit); see docs/pagination.md for when n requests at a time is rude.
func Parallel(n int) Option {
	return func(c *config) { c.parallel = min(n, maxParallel) }
}

// maxParallel is the most requests [Parallel] sends at a time: more would
// be a load test, not a client (rule 7).
const maxParallel = 64

// pageSeries is a series of numbered pages predicted from a page's next
// and last links: the URL of page k is that of the next link with k as the
// value of the page parameter (rule 6).
type pageSeries struct {
	base           url.URL // the next link
	prefix, suffix string  // of base's RawQuery, around the page number
	next, last     int     // the pages to request
}

// url returns the URL of page k of s: two allocations, the URL and its
// query.
func (s *pageSeries) url(k int) *url.URL {
	var buf [20]byte
	num := strconv.AppendInt(buf[:0], int64(k), 10)
	var q strings.Builder
	q.Grow(len(s.prefix) + len(num) + len(s.suffix))
	q.WriteString(s.prefix)
	q.Write(num)
	q.WriteString(s.suffix)
	u := s.base
	u.RawQuery = q.String()
	return &u
}

// is reports whether u is the URL of page k of s, as written: a server
// that writes it otherwise is taken at its word, one page at a time. It
// allocates nothing.
func (s *pageSeries) is(u *url.URL, k int) bool {
	v := *u
	v.RawQuery, v.User = s.base.RawQuery, s.base.User
	if v != s.base || (u.User == nil) != (s.base.User == nil) || u.User != nil && *u.User != *s.base.User {
		return false
	}
	return numbered(u.RawQuery, s.prefix, s.suffix, k)
}

// numbered reports, without allocating, whether text is prefix, the
// decimal k and suffix.
func numbered(text, prefix, suffix string, k int) bool {
	var buf [20]byte
	num := strconv.AppendInt(buf[:0], int64(k), 10)
	return len(text) == len(prefix)+len(num)+len(suffix) && strings.HasPrefix(text, prefix) &&
		strings.HasSuffix(text, suffix) && text[len(prefix):len(text)-len(suffix)] == string(num)
}

// predictSeries returns the series of pages from next to last when they
// are numbered (rule 6): next and last are the same URL but for the value
// of one query parameter, both decimal integers, next's is at most last's,
// and next's is one more than that of page, the URL of the current page
// (which is page 1 without that parameter).
func predictSeries(page, next, last *url.URL) (pageSeries, bool) {
	var s pageSeries
	if next == nil || last == nil || !sameButQuery(next, last) {
		return s, false
	}
	d, ok := differingValue(next.RawQuery, last.RawQuery)
	if !ok {
		return s, false
	}
	_, once := queryValue(next.RawQuery, d.name)
	current, ok := queryValue(page.RawQuery, d.name)
	if !once || !ok || d.a != current+1 || d.a > d.b {
		return s, false
	}
	s.base = *next
	s.prefix, s.suffix = next.RawQuery[:d.start], next.RawQuery[d.end:]
	s.next, s.last = d.a, d.b
	return s, true
}

// sameButQuery reports whether a and b are the same URL but for their
// queries.
func sameButQuery(a, b *url.URL) bool {
	x, y := *a, *b
	x.RawQuery, y.RawQuery = "", ""
	return x.String() == y.String()
}

// queryDiff is the one query element in which two queries differ.
type queryDiff struct {
	name       string // the parameter, as written
	a, b       int    // its page numbers in the first query and the second
	start, end int    // where the first query's value is
}

// differingValue compares two raw queries element by element ("&"
// separated) and returns the one element in which they differ, when they
// have as many elements and differ in exactly one, with the same name
// ("name=value") and page numbers as values.
func differingValue(a, b string) (queryDiff, bool) {
	var d queryDiff
	found := false
	for i, j := 0, 0; ; i, j = i+1, j+1 { // past the "&" of each
		ea, eb := element(a[i:]), element(b[j:])
		if ea != eb {
			name, va, _ := strings.Cut(ea, "=")
			nameB, vb, _ := strings.Cut(eb, "=")
			var okA, okB bool
			d.a, okA = pageNumber(va)
			d.b, okB = pageNumber(vb)
			if found || name != nameB || !okA || !okB || len(name) == len(ea) {
				return d, false
			}
			found, d.name, d.start, d.end = true, name, i+len(name)+1, i+len(ea)
		}
		i, j = i+len(ea), j+len(eb)
		// An "&" follows the element in one query and not in the
		// other: not as many elements (an "&" at the end is followed
		// by an empty one).
		if (i < len(a)) != (j < len(b)) {
			return d, false
		}
		if i == len(a) {
			return d, found
		}
	}
}

// element returns the query element at the start of q, up to the next "&".
func element(q string) string {
	if i := strings.IndexByte(q, '&'); i >= 0 {
		return q[:i]
	}
	return q
}

// queryValue returns the page number that the raw query q gives to the
// parameter key: 1 when it has none, and false when it has the parameter
// more than once or not as a page number.
func queryValue(q, key string) (int, bool) {
	n, seen := 1, false
	for q != "" {
		e := element(q)
		q = q[min(len(e)+1, len(q)):]
		name, v, _ := strings.Cut(e, "=")
		if name != key {
			continue
		}
		var ok bool
		if n, ok = pageNumber(v); !ok || seen {
			return 0, false
		}
		seen = true
	}
	return n, true
}

// pageNumber reads a page number: decimal digits without a sign or a
// leading zero (so that writing it back gives the same text), small enough
// for an int.
func pageNumber(v string) (int, bool) {
	if v == "" || v[0] == '0' && len(v) > 1 {
		return 0, false
	}
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(v)
	return n, err == nil
}

// lastLink returns the target of resp's first rel="last" link whose
// context is the page itself, resolved against the page as its next link
// is (user information included), or nil.
func lastLink(resp *http.Response) *url.URL {
	links, _ := weblink.ParseHeader(resp.Header) // the malformed parts are dropped; the series is checked page by page
	page := weborigin.VisitKey(resp.Request.URL)
	for _, l := range links.Resolve(resp.Request.URL) {
		if !l.HasRel(weblink.RelLast) || l.Anchor != "" && weborigin.VisitKeyOf(l.Anchor) != page {
			continue
		}
		u, err := url.Parse(l.Target)
		if err != nil {
			return nil
		}
		return u
	}
	return nil
}

// predictable reports whether the pages' next links can be predicted
// from the first page's Link header: not with NextInBody (rule 35).
func (p *pager) predictable() bool {
	_, inBody := p.links.(*bodyLinks)
	return !inBody
}

// predict returns the series of pages after first, the first page, that
// Parallel requests ahead (rule 6), within MaxPages (rule 9).
func (p *pager) predict(first *http.Response) (pageSeries, bool) {
	next, found := weblink.NextURL(first)
	if !found {
		return pageSeries{}, false
	}
	s, ok := predictSeries(first.Request.URL, next, lastLink(first))
	if !ok {
		return s, false
	}
	if m := p.cfg.maxPages; m >= 1 && s.last-s.next+1 > m-1 {
		s.last = s.next + m - 2 // m counts pages, first among them, not page numbers
	}
	return s, s.next <= s.last
}

// count returns the place of page k of s in the iteration: the first page,
// whatever its number, is the first, and s.next the second.
func (s *pageSeries) count(k int) int { return k - s.next + 2 }

// parallel yields first, the first page, already fetched and 2xx, and the
// pages after it that Parallel predicts (rules 6 to 10). It returns the
// last page it yielded, its place in the iteration, and whether paging goes on, one
// page at a time, from that page's own next link.
func (p *pager) parallel(yield func(*http.Response, error) bool, first *http.Response) (*http.Response, int, bool) {
	s, ok := p.predict(first)
	if !ok {
		return first, 1, p.yieldPage(yield, first, nil)
	}
	r := p.startParallel(s)
	defer r.stop()
	return r.run(yield, first)
}

// parallelRun is the state of the pages that Parallel requests ahead: a
// window of n slots, page k in slots[k%n], and up to n goroutines, its
// workers, which fetch the pages launched, each in its turn (rule 7).
type parallelRun struct {
	p       *pager
	s       pageSeries
	ctx     context.Context // of the requests ahead; cancelled to discard them
	cancel  context.CancelFunc
	wg      sync.WaitGroup  // the workers
	jobs    chan pageJob    // buffered: there are never more than n pages launched and not taken
	results chan pageResult // buffered, as jobs: a worker never waits to hand a page over
	workers int             // started
	slots   []parallelSlot
	sent    int  // the last page whose request was launched (or failed)
	taken   int  // the last page taken from its slot
	closed  bool // no more requests are launched
}

// parallelSlot is where a page requested ahead waits for its turn, once
// received, and what the run remembers of its request.
type parallelSlot struct {
	res   pageResult
	ready bool     // res is the page's
	url   *url.URL // the URL requested, to tell a redirect
	moved string   // the visitKey of the URL BeforeNext gave the page, if it changed it to one not visited before
}

// pageJob is a page for a worker to fetch: page k, with req.
type pageJob struct {
	req *http.Request
	k   int
}

// pageResult is what fetching page k gave, as pager.fetch returns it, or
// what the client panicked with.
type pageResult struct {
	resp     *http.Response
	err      error
	k        int
	panicked any
}

// startParallel prepares the run of s, a predicted series.
func (p *pager) startParallel(s pageSeries) *parallelRun {
	n := min(p.cfg.parallel, s.last-s.next+1)
	r := &parallelRun{p: p, s: s, slots: make([]parallelSlot, n), sent: s.next - 1, taken: s.next - 1}
	r.ctx, r.cancel = context.WithCancel(p.ctx)
	r.jobs = make(chan pageJob, n)
	r.results = make(chan pageResult, n)
	return r
}

// run yields first and the pages of the series in order, keeping the window
// full (rules 7 and 8).
func (r *parallelRun) run(yield func(*http.Response, error) bool, first *http.Response) (*http.Response, int, bool) {
	p := r.p
	held := first // received, not yet yielded: closed if BeforeNext panics in launch
	defer func() {
		if held != nil {
			held.Body.Close()
		}
	}()
	for range r.slots {
		r.launch(first)
	}
	if held = nil; !p.yieldPage(yield, first, nil) {
		return first, 1, false
	}
	for k := r.s.next; ; k++ {
		res := r.take(k)
		if res.panicked != nil {
			panic(res.panicked) // the client's, in a worker
		}
		if res.resp == nil {
			r.discard()
			yield(nil, res.err)
			return nil, r.s.count(k), false
		}
		held = res.resp
		if err := p.ctxErr(); err != nil { // its body is cut: yielded as one page at a time would not be
			r.discard()
			yield(nil, fmt.Errorf("paging: page %d of %s not yielded: %w", r.s.count(k), quote.URL(res.resp.Request.URL), err))
			return nil, r.s.count(k), false
		}
		again := r.redirected(res.resp, k)
		ahead := again == "" && res.err == nil && k < r.s.last && r.predicted(res.resp, k+1)
		if ahead {
			r.launch(res.resp)
		} else {
			r.closed = true // the pages ahead are discarded once it is released
		}
		held = nil
		more, cut := r.yieldPage(yield, res.resp, res.err)
		if !more || res.err != nil {
			return res.resp, r.s.count(k), false
		}
		if cut || !ahead {
			r.discard()
			if again != "" {
				p.visited[again] = true // a page discarded may have had its URL
			}
			return res.resp, r.s.count(k), true // on from its own next link
		}
	}
}

// redirected records where a redirect of resp, page k, led as visited. When
// that page was visited already (a page before it, or one requested ahead),
// it returns its visitKey: paging goes on one page at a time, which checks
// the next link of resp for a loop as a followed link is checked.
func (r *parallelRun) redirected(resp *http.Response, k int) (again string) {
	sent := r.slots[k%len(r.slots)].url
	u := resp.Request.URL
	if u == sent {
		return ""
	}
	key := weborigin.VisitKey(u)
	if key == weborigin.VisitKey(sent) {
		return "" // a RoundTripper that cloned the request
	}
	if r.p.visited[key] {
		again = key
	}
	r.p.visited[key] = true
	return again
}

// yieldPage yields resp, a page of the run, with err and then releases it
// as pager.yieldPage does, but for a drain that takes too long: it is cut
// by cancelling every request of the run, which shares its context (rule
// 8). It reports whether the loop goes on and whether the drain was cut.
func (r *parallelRun) yieldPage(yield func(*http.Response, error) bool, resp *http.Response, err error) (more, cut bool) {
	return yieldReleased(yield, resp, err, r.cancel)
}

// launch starts the request for the next page of the series not yet
// requested, if any, with prev the latest page received in order. A check
// or BeforeNext refusing it puts the error in its slot, to be yielded in
// order, and ends the launches.
func (r *parallelRun) launch(prev *http.Response) {
	if r.closed || r.sent >= r.s.last {
		return
	}
	k := r.sent + 1
	sl := &r.slots[k%len(r.slots)]
	u := r.s.url(k)
	req, err := r.p.linkRequest(r.ctx, prev, r.s.count(k-1), u)
	added := ""
	if err == nil {
		added, err = r.p.beforeNext(prev, req)
	}
	// Page k counts as sent only now: when BeforeNext panics, discard
	// must not wait for a page that has no result coming.
	r.sent = k
	sl.url, sl.moved = u, ""
	if req == nil {
		sl.url = nil // not counted as visited by this launch: a loop, say
	}
	if err != nil {
		sl.res, sl.ready = pageResult{err: err, k: k}, true
		r.closed = true
		return
	}
	if req.URL != u {
		sl.url, sl.moved = req.URL, added
	}
	if r.workers < len(r.slots) {
		r.workers++
		r.wg.Add(1)
		go r.work()
	}
	r.jobs <- pageJob{req, k}
}

// work fetches the pages launched, one after the other, in a goroutine of
// its own, and hands each to its slot, until the run stops. Its copy of
// the pager shares the iteration's limiter and wait budget: a page refused
// by a rate limit, or saying that it is spent, pauses every request not
// yet sent (rule 9). Its requests have the run's context: a refused
// page's body is closed without draining (as cutting a drain short would
// cancel the run), and the run records where redirects led.
func (r *parallelRun) work() {
	defer r.wg.Done()
	w := *r.p
	w.worker = true
	w.ctx, w.reqCtx, w.cancelReq, w.visited, w.reserved = r.ctx, r.ctx, nil, nil, false
	for j := range r.jobs {
		r.results <- r.fetch(&w, j)
	}
}

// fetch fetches page j.k with w, a worker's pager. A panic of the client
// (its RoundTripper, its CheckRedirect) is recovered, to be raised again
// in the loop, in the page's place, as one page at a time raises it: in
// the worker, nothing could recover it, and the program would end.
func (r *parallelRun) fetch(w *pager, j pageJob) (res pageResult) {
	res.k = j.k
	defer func() {
		if v := recover(); v != nil {
			res.panicked = v
		}
	}()
	res.resp, res.err = w.fetch(j.req, r.s.count(j.k))
	return res
}

// take waits for page k and takes it from its slot, putting the pages
// received meanwhile in theirs.
func (r *parallelRun) take(k int) pageResult {
	r.taken = k
	sl := &r.slots[k%len(r.slots)]
	for !sl.ready {
		res := <-r.results
		r.slots[res.k%len(r.slots)].res, r.slots[res.k%len(r.slots)].ready = res, true
	}
	res := sl.res
	sl.res, sl.ready = pageResult{}, false
	return res
}

// predicted reports whether the next link of resp, page k-1, is the URL
// predicted for page k.
func (r *parallelRun) predicted(resp *http.Response, k int) bool {
	u, ok := weblink.NextURL(resp)
	return ok && r.s.is(u, k)
}

// discard ends the launches and discards the pages requested and not
// taken: their requests are cancelled and their bodies closed unread, and
// they no longer count as visited (rule 8). It returns when each of them
// is back from its slot. It cancels the context of every request of the
// run: a page taken must be released first, or its body could not be read.
func (r *parallelRun) discard() {
	r.closed = true
	r.cancel()
	for r.taken < r.sent { // not k <= r.sent: the last page may be math.MaxInt
		k := r.taken + 1
		res := r.take(k)
		if res.resp != nil {
			res.resp.Body.Close()
		}
		sl := &r.slots[k%len(r.slots)]
		if sl.url != nil {
			delete(r.p.visited, weborigin.VisitKey(r.s.url(k)))
		}
		if sl.moved != "" {
			delete(r.p.visited, sl.moved)
		}
	}
}

// stop discards what is left of the run and ends its goroutines: it
// returns when they have ended.
func (r *parallelRun) stop() {
	r.discard()
	close(r.jobs)
	r.wg.Wait()
}
