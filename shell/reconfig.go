package shell

import (
	"context"
	"errors"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/bss"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
)

// Reconfig is a change of the core's settings that a reload applies live,
// on the loop that owns the core; the zero value changes nothing.
type Reconfig struct {
	ACL           *bss.ACL // new access lists; nil: unchanged
	AirtimeWeight uint16   // the weight of stations associating from now on; 0: unchanged
	PSKs          *ap.PSKs // new pre-shared keys (ap.DerivePSKs); nil: unchanged
	// Airtime is the new airtime policy (airtime_mode and the BSS's
	// airtime keys); nil: unchanged.
	Airtime *ap.Airtime
	// BSSes are BSSes to restart with a new configuration, each alone
	// (ap.AP.RestartBSS): a bss= section that changed.
	BSSes []BSSRestart
	// BSSPSKs are new pre-shared keys for BSSes after the first, each
	// for its BSS alone (ap.AP.SetPSKsFor): a bss= section whose secrets
	// alone changed.
	BSSPSKs []BSSPSKs
}

// BSSPSKs are the new keys of BSS Index of the radio (1 for the first
// bss= section), derived for its SSID (ap.ReloadPSKs).
type BSSPSKs struct {
	Index int
	PSKs  *ap.PSKs
}

// BSSRestart is BSS Index of the radio (1 for the first bss= section)
// restarted with Config; Keys are Config.RSN's PMKs and SAE PTs
// (ap.DerivePSKs) derived off the loop, nil for an open BSS.
type BSSRestart struct {
	Index  int
	Config ap.BSSConfig
	Keys   *ap.PSKs
}

// Reconfigure applies c on the loop and returns the stations it
// deauthenticated: those the new access lists refuse (as airqctl station
// del does; hostapd disconnects a station its deny list gains), and those
// whose PSK the new keys no longer hold (reason 2, as hostapd's
// RELOAD_WPA_PSK). If ctx ends first
// the change may still be applied later.
func (s *ControlServer) Reconfigure(ctx context.Context, c Reconfig) ([]ieee80211.MAC, error) {
	call := &ControlCall{reconf: &c, reply: make(chan ctl.Reply, 1)}
	if _, err := s.send(ctx, call); err != nil {
		return nil, err
	}
	if !call.applied { // written before the loop answered, like removed and err
		return nil, errors.New("control: the loop answered a reconfiguration as a request")
	}
	return call.removed, call.err
}

// apply runs on the loop.
func (c *Reconfig) apply(core *ap.AP, now time.Duration, control func(ctl.Request) ctl.Reply) ([]ieee80211.MAC, error) {

	if c.AirtimeWeight != 0 {
		core.SetDefaultAirtimeWeight(c.AirtimeWeight)
	}
	if c.Airtime != nil {
		if err := applyAirtime(core.AirtimeConfig(), *c.Airtime, control); err != nil {
			return nil, err
		}
	}
	var removed []ieee80211.MAC
	remove := func(gone []ieee80211.MAC, reason uint16, why string) {
		for _, m := range gone {
			if rep := control(ctl.Request{Op: ctl.OpStationDel, Addr: m, Reason: reason, Why: why}); rep.Err() == nil {
				removed = append(removed, m)
			}
		}
	}
	psks := c.BSSPSKs
	if c.PSKs != nil {
		psks = append([]BSSPSKs{{Index: 0, PSKs: c.PSKs}}, psks...)
	}
	for _, p := range psks {
		gone, err := core.SetPSKsFor(p.Index, p.PSKs)
		if err != nil {
			return removed, err
		}
		remove(gone, ieee80211.ReasonPrevAuthNotValid, "PSK no longer valid")
	}
	if c.ACL != nil {
		gone, err := core.SetACL(*c.ACL)
		if err != nil {
			return removed, err
		}
		remove(gone, 0, "refused by the access lists")
	}
	for _, r := range c.BSSes {
		if err := core.RestartBSSWith(now, r.Index, r.Config, r.Keys); err != nil {
			return removed, err
		}
	}
	return removed, nil
}
