package main

import (
	"strings"
	"testing"

	"github.com/airq/airq/internal/ieee80211"
)

func TestFlagsDefaultsAndAQL(t *testing.T) {
	o, err := parseFlags([]string{"-phy", "phy0", "-aql-txq-limit", "BE=500:1000", "-aql-txq-limit", "VO=4000:9000", "-airtime-weight", "512"})
	if err != nil {
		t.Fatal(err)
	}
	l := o.Core.AQL
	if l.Low[ieee80211.ACBE] != 500 || l.High[ieee80211.ACBE] != 1000 || l.Low[ieee80211.ACVO] != 4000 || l.High[ieee80211.ACVI] != 12000 {
		t.Errorf("limits %+v", l)
	}
	if o.Core.AirtimeWeight != 512 || o.Ifname != "airq0" || o.Core.SSID != "airq" {
		t.Errorf("options %+v", o)
	}
}

// The file's aql_txq_limit refuses low above high at start, as airqctl's
// aql set does live.
func TestFileAQLLowAboveHigh(t *testing.T) {
	path := writeConf(t, "aql_txq_limit=BE=1000:500\n")
	_, err := parseFlags([]string{"-radio", "sim", "-config", path})
	if err == nil || !strings.Contains(err.Error(), "aql_txq_limit") || !strings.Contains(err.Error(), "want LOW <= HIGH") {
		t.Errorf("error %v, want one naming aql_txq_limit and LOW <= HIGH", err)
	}
}

func TestBadFlagsNameTheFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{}, "-phy"},
		{[]string{"-radio", "usb"}, "-radio"},
		{[]string{"-phy", "phy0", "-bssid", "ff:ff:ff:ff:ff:ff"}, "-bssid"},
		{[]string{"-phy", "phy0", "-aql-txq-limit", "XX=1:2"}, "aql-txq-limit"},
		{[]string{"-phy", "phy0", "-aql-txq-limit", "BE=1000:500"}, "BE low 1000 µs is above high 500 µs"},
		{[]string{"-phy", "phy0", "-airtime-weight", "0"}, "-airtime-weight"},
		{[]string{"-phy", "phy0", "-log-level", "loud"}, "-log-level"},
		{[]string{"-phy", "phy0", "-ifname", "a-name-that-is-too-long"}, "-ifname"},
	} {
		_, err := parseFlags(c.args)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want one naming %s", c.args, err, c.want)
		}
	}
}
