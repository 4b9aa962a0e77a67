package shell

import (
	"reflect"
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/txq/policy"
)

// A reload's new airtime keys reach the core as the airtime set requests
// airqctl would send, only those that changed; applied, the core's policy
// is the new one.
func TestReloadAirtime(t *testing.T) {
	a, b := ieee80211.MAC{2, 0, 0, 0, 0x10, 1}, ieee80211.MAC{2, 0, 0, 0, 0x10, 2}
	cur := ap.Airtime{Mode: policy.Static, BSS: []ap.BSSAirtime{{Weight: 3, CapPercent: 30, StaWeights: map[ieee80211.MAC]uint16{a: 5, b: 7}}}}
	next := ap.Airtime{Mode: policy.Dynamic, Interval: 500 * time.Millisecond, BSS: []ap.BSSAirtime{{Weight: 3, Limit: true, StaWeights: map[ieee80211.MAC]uint16{b: 9}}}}
	got := airtimeRequests(cur, next)
	want := []ctl.Request{
		{Op: ctl.OpAirtimeSet, Key: "airtime_mode", Value: 2},
		{Op: ctl.OpAirtimeSet, Key: "airtime_update_interval", Value: 500},
		{Op: ctl.OpAirtimeSet, Key: "airtime_bss_limit", Value: 1},
		{Op: ctl.OpAirtimeSet, Key: "airtime_bss_cap", Value: 100},
		{Op: ctl.OpAirtimeSet, Key: "airtime_sta_weight", Addr: a},
		{Op: ctl.OpAirtimeSet, Key: "airtime_sta_weight", Addr: b, Value: 9},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("requests\n%v\nwant\n%v", got, want)
	}
	if rs := airtimeRequests(next, next); len(rs) != 0 {
		t.Errorf("no change sends %v", rs)
	}
	core, err := ap.New(ap.Config{SSID: "reload", BSSID: ieee80211.MAC{2, 0, 0, 0, 2, 0}, Channel: 1, Airtime: cur})
	if err != nil {
		t.Fatal(err)
	}
	core.Start(0)
	control := func(r ctl.Request) ctl.Reply { return core.Control(time.Millisecond, r) }
	if err := (&Reconfig{Airtime: &next}).applyOnly(core, control); err != nil {
		t.Fatal(err)
	}
	if c := core.AirtimeConfig(); !reflect.DeepEqual(c, next) {
		t.Errorf("the core's policy %+v, want %+v", c, next)
	}
	if r := core.Control(time.Millisecond, ctl.Request{Op: ctl.OpAirtime}); r.Airtime.BSSes[0].CapPercent != 100 {
		t.Errorf("cap %d%% after the reload lifted it", r.Airtime.BSSes[0].CapPercent)
	}
}

// applyOnly is apply without the stations it removes.
func (c *Reconfig) applyOnly(core *ap.AP, control func(ctl.Request) ctl.Reply) error {
	_, err := c.apply(core, 0, control)
	return err
}
