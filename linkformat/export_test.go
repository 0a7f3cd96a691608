package linkformat

// LinkStarts is linkStarts, for FuzzLinkStarts in timemap_test.go.
var LinkStarts = linkStarts
