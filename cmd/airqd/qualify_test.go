package main

import (
	"strings"
	"testing"
)

func TestRadioFlags(t *testing.T) {
	o, err := parseFlags([]string{"-phy", "phy0", "-country", "us", "-takeover", "-bridge", "br0", "-qualify"})
	if err != nil {
		t.Fatal(err)
	}
	if o.Country != "US" || !o.takeover || o.Bridge != "br0" || !o.qualify {
		t.Errorf("radio options = %q %v %q %v", o.Country, o.takeover, o.Bridge, o.qualify)
	}
	for _, args := range [][]string{
		{"-phy", "phy0", "-country", "USA"},
		{"-phy", "phy0", "-country", "1A"},
		{"-phy", "phy0", "-qualify", "-no-qualify"},
		{"-phy", "phy0", "-bridge", strings.Repeat("b", 16)},
	} {
		if _, err := parseFlags(args); err == nil {
			t.Errorf("%v accepted", args)
		}
	}
}
