// Command relgen writes zrelations.go and zrelations_test.go, the generated
// part of package weblink, from the IANA link relations data file. It is run
// by "go generate" at the module root; see package relgen.
package main

import (
	"flag"
	"log"
	"os"

	"github.com/weblinking/weblink/internal/relgen"
)

func main() {
	in := flag.String("in", relgen.DataFile, "registry data `file`")
	out := flag.String("out", "zrelations.go", "generated Go `file`")
	testOut := flag.String("test", "zrelations_test.go", "generated Go test `file`")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("relgen: ")

	data, err := os.ReadFile(*in)
	if err != nil {
		log.Fatal(err)
	}
	code, test, err := relgen.Generate(data)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, code, 0o644); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*testOut, test, 0o644); err != nil {
		log.Fatal(err)
	}
}
