package nl80211

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/mdlayher/netlink"
)

// RegDomain is a regulatory domain as the kernel applied it.
type RegDomain struct {
	Alpha2    string // "US", "DE"; "00" is the world domain, "99"/"98" custom/intersection
	DFSRegion int    // NL80211_DFS_*: 0 unset, 1 FCC, 2 ETSI, 3 JP
	Rules     []RegRule
}

// RegRule is one frequency range of a domain.
type RegRule struct {
	StartKHz, EndKHz uint32
	MaxBWKHz         uint32
	MaxEIRPmBm       uint32 // maximum EIRP in mBm (100 * dBm)
	Flags            uint32 // NL80211_RRF_*: RuleNoIR, RuleDFS, ...
	CACms            uint32 // DFS channel availability check time, when given
}

// Rule flags (NL80211_RRF_*).
const (
	RuleNoOFDM    = 1 << 0
	RuleNoOutdoor = 1 << 3
	RuleDFS       = 1 << 4
	RuleNoIR      = 1 << 7
	RuleAutoBW    = 1 << 11
)

// World reports whether d is the world domain, in which 5 GHz allows no
// initiating radiation.
func (d RegDomain) World() bool { return d.Alpha2 == "00" }

// RuleFor returns the rule covering the 20 MHz channel centred on freq MHz.
func (d RegDomain) RuleFor(freq int) (RegRule, bool) {
	lo, hi := uint32(freq-10)*1000, uint32(freq+10)*1000
	for _, r := range d.Rules {
		if r.StartKHz <= lo && hi <= r.EndKHz {
			return r, true
		}
	}
	return RegRule{}, false
}

// RegDomain reads the global regulatory domain (NL80211_CMD_GET_REG).
// Self-managed wiphys keep their own domain; see PHY.SelfManagedReg.
func (c *Conn) RegDomain() (RegDomain, error) {
	msgs, err := c.request("get regulatory domain", cmdGetReg, 0, nil)
	if err != nil {
		return RegDomain{}, err
	}
	if len(msgs) == 0 {
		return RegDomain{}, &Error{Op: "get regulatory domain", Err: errors.New("empty reply")}
	}
	d, err := decodeRegDomain(msgs[0].Data)
	return d, wrap("get regulatory domain", err)
}

func decodeRegDomain(b []byte) (RegDomain, error) {
	var d RegDomain
	ad, err := netlink.NewAttributeDecoder(b)
	if err != nil {
		return d, err
	}
	for ad.Next() {
		switch ad.Type() {
		case attrRegAlpha2:
			d.Alpha2 = ad.String()
		case attrDfsRegion:
			d.DFSRegion = int(ad.Uint8())
		case attrRegRules:
			ad.Nested(func(nad *netlink.AttributeDecoder) error {
				for nad.Next() {
					var r RegRule
					nad.Nested(r.decode)
					d.Rules = append(d.Rules, r)
				}
				return nil
			})
		}
	}
	return d, ad.Err()
}

func (r *RegRule) decode(ad *netlink.AttributeDecoder) error {
	for ad.Next() {
		switch ad.Type() {
		case attrRegRuleFlags:
			r.Flags = ad.Uint32()
		case attrFreqRangeStart:
			r.StartKHz = ad.Uint32()
		case attrFreqRangeEnd:
			r.EndKHz = ad.Uint32()
		case attrFreqRangeMaxBW:
			r.MaxBWKHz = ad.Uint32()
		case attrPowerRuleMaxEIRP:
			r.MaxEIRPmBm = ad.Uint32()
		case attrDfsCacTime:
			r.CACms = ad.Uint32()
		}
	}
	return nil
}

// DefaultRegTimeout bounds SetCountry when ctx has no deadline. The kernel
// gives up waiting for regulatory data after about 3 s and restores the
// world domain, which SetCountry reports as a failure.
const DefaultRegTimeout = 5 * time.Second

// SetCountry asks the kernel to apply the country alpha2
// (NL80211_CMD_REQ_SET_REG, a user hint) and waits for the regulatory change
// event on ev, which must be joined to GroupRegulatory before the call so
// that the event cannot be missed. It returns the domain the kernel applied,
// read back after the event: advertise that, not the request. If the kernel
// already applies alpha2 it returns at once (the kernel ignores a repeated
// hint and sends no event).
//
// It fails when the kernel restores another domain instead (no regulatory
// database entry for the country: install wireless-regdb), or when no
// change arrives before ctx ends (DefaultRegTimeout without a deadline).
func (c *Conn) SetCountry(ctx context.Context, ev *Events, alpha2 string) (RegDomain, error) {
	op := "set country " + alpha2
	if len(alpha2) != 2 {
		return RegDomain{}, &Error{Op: op, Err: errors.New("want a two-letter ISO 3166 code such as US or DE")}
	}
	cur, err := c.RegDomain()
	if err != nil {
		return RegDomain{}, err
	}
	if cur.Alpha2 == alpha2 {
		return cur, nil
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultRegTimeout)
		defer cancel()
	}
	deadline, _ := ctx.Deadline()
	_ = ev.SetDeadline(deadline)
	defer ev.SetDeadline(time.Time{})
	stop := context.AfterFunc(ctx, func() { _ = ev.SetDeadline(time.Unix(1, 0)) })
	defer stop()

	if _, err := c.request(op, cmdReqSetReg, netlink.Acknowledge, func(ae *netlink.AttributeEncoder) {
		ae.String(attrRegAlpha2, alpha2)
	}); err != nil {
		return RegDomain{}, err
	}
	return c.awaitCountry(ctx, ev, op, alpha2)
}

// awaitCountry reads regulatory events until one settles the request.
func (c *Conn) awaitCountry(ctx context.Context, ev *Events, op, alpha2 string) (RegDomain, error) {
	for {
		evs, err := ev.Next()
		switch {
		case errors.Is(err, ErrResync):
			evs = []Event{{Kind: EventRegChange, Alpha2: "?"}} // re-read below
		case err != nil && (errors.Is(err, os.ErrDeadlineExceeded) || ctx.Err() != nil):
			if d, rerr := c.RegDomain(); rerr == nil && d.Alpha2 == alpha2 {
				return d, nil
			}
			return RegDomain{}, &Error{Op: op, Err: fmt.Errorf("no regulatory change from the kernel in time: %w", context.DeadlineExceeded)}
		case err != nil:
			return RegDomain{}, err
		}
		for _, e := range evs {
			if e.Kind != EventRegChange {
				continue
			}
			d, err := c.RegDomain()
			if err != nil {
				return RegDomain{}, err
			}
			if d.Alpha2 == alpha2 {
				return d, nil
			}
			if e.Alpha2 != "?" && e.RegType == RegTypeWorld {
				return d, &Error{Op: op, Err: fmt.Errorf("the kernel restored the world domain: no regulatory data for %s (is wireless-regdb installed?)", alpha2)}
			}
		}
	}
}
