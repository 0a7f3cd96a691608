package paging

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"reflect"

	"github.com/weblinking/weblink/internal/peertext"
	"github.com/weblinking/weblink/internal/quote"
)

// Items pages through req as [Pages] does, with the same options and
// checks, and yields the items that decode returns for each 2xx page, in
// order.
//
//	for issue, err := range Items(ctx, client, req, JSONItems[Issue]) {
//		if err != nil {
//			return err
//		}
//		// use issue
//	}
//
// decode reads the page's body; Pages closes it afterwards, also when the
// loop body breaks in the middle of a page. [JSONItems] decodes a JSON array.
// The first error ends the iteration, yielded with the zero T: an error from
// Pages (for a page that is not 2xx, a [*StatusError]: the response body is
// closed, and the error carries its header and first 2 KiB), or an error from decode, wrapped ([errors.Is] and [errors.As]
// find it) in an error that names the page URL. Each range over the
// sequence starts again from req. A nil decode yields only an error, before
// any request is sent.
func Items[T any](ctx context.Context, client *http.Client, req *http.Request,
	decode func(*http.Response) ([]T, error), opts ...Option) iter.Seq2[T, error] {
	pages := Pages(ctx, client, req, opts...)
	return func(yield func(T, error) bool) {
		var zero T
		if decode == nil {
			yield(zero, errors.New("paging: Items needs a decode function, such as JSONItems[T]"))
			return
		}
		n := 0
		for resp, err := range pages {
			n++
			if err != nil {
				yield(zero, err)
				return
			}
			items, err := decode(resp)
			if err != nil {
				// A body read's error may hold the peer's bytes (rule 36).
				yield(zero, fmt.Errorf("paging: page %d (%s) did not decode: %w", n, quote.URL(resp.Request.URL), peertext.Error(err)))
				return
			}
			for _, item := range items {
				if !yield(item, nil) {
					return
				}
			}
		}
	}
}

// JSONItems decodes the body of resp as a JSON array of T, for [Items].
//
// An empty body (a 204 No Content, the answer to a HEAD request, or only
// whitespace) and the JSON null are no items; anything after the array is an
// error.
//
// The array is decoded one element at a time as it is read, so that
// memory grows with the decoded items, not also with a copy of the page (a
// page of GitHub-like issues allocates about twice its size in all), in time
// linear in the page. There is no
// limit on a page's size; to set one, decode with your own function that
// wraps resp.Body in an [io.LimitedReader] or [http.MaxBytesReader].
func JSONItems[T any](resp *http.Response) ([]T, error) {
	if resp.StatusCode == http.StatusNoContent || resp.Request != nil && resp.Request.Method == http.MethodHead {
		return nil, nil
	}
	dec := json.NewDecoder(resp.Body)
	tok, err := dec.Token()
	switch {
	case err == io.EOF:
		return nil, nil
	case err != nil:
		return nil, err
	case tok == nil: // null
		return nil, endOfJSON(dec)
	case tok != json.Delim('['):
		return nil, &json.UnmarshalTypeError{Value: jsonKind(tok), Type: reflect.TypeFor[[]T](), Offset: dec.InputOffset()}
	}
	items, err := elements[T](dec)
	if err != nil {
		return nil, err
	}
	if err := endOfJSON(dec); err != nil {
		return nil, err
	}
	return items, nil
}

// elements decodes the elements of the array that dec has just opened, one
// at a time, and reads its "]".
func elements[T any](dec *json.Decoder) ([]T, error) {
	items := []T{}
	for dec.More() {
		var zero T
		items = append(items, zero) // decoded in place: no item of its own on the heap
		if err := dec.Decode(&items[len(items)-1]); err != nil {
			return nil, unexpectedEOF(err)
		}
	}
	if _, err := dec.Token(); err != nil { // the "]"
		return nil, unexpectedEOF(err)
	}
	return items, nil
}

// endOfJSON reports an error unless dec is at the end of its input.
func endOfJSON(dec *json.Decoder) error {
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("paging: the JSON array is followed by more data")
	}
	return nil
}

// unexpectedEOF is err, or io.ErrUnexpectedEOF for an end of the body in
// the middle of the array.
func unexpectedEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// jsonKind names the JSON value that tok starts, as encoding/json does in
// its errors.
func jsonKind(tok json.Token) string {
	switch tok.(type) {
	case json.Delim:
		return "object"
	case bool:
		return "bool"
	case string:
		return "string"
	}
	return "number"
}
