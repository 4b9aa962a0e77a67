package nl80211

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/mdlayher/genetlink"
	"github.com/mdlayher/genetlink/genltest"
	"github.com/mdlayher/netlink"
	"golang.org/x/sys/unix"
)

// regReply is a hand-built GET_REG reply (TestRecordedRegDomain and
// TestRecordedSetCountry replay the kernel's) as nl80211_get_reg_do builds it
// (nl80211_put_regdom): ALPHA2, DFS_REGION, then REG_RULES with one nested
// set per rule, numbered from 0.
func regReply(t *testing.T, alpha2 string, dfs uint8, rules ...RegRule) genetlink.Message {
	return genetlink.Message{
		Header: genetlink.Header{Command: cmdGetReg},
		Data: encode(t, func(ae *netlink.AttributeEncoder) {
			ae.String(attrRegAlpha2, alpha2)
			ae.Uint8(attrDfsRegion, dfs)
			ae.Nested(attrRegRules, func(rae *netlink.AttributeEncoder) error {
				for i, r := range rules {
					rae.Nested(uint16(i), func(nae *netlink.AttributeEncoder) error {
						nae.Uint32(attrRegRuleFlags, r.Flags)
						nae.Uint32(attrFreqRangeStart, r.StartKHz)
						nae.Uint32(attrFreqRangeEnd, r.EndKHz)
						nae.Uint32(attrFreqRangeMaxBW, r.MaxBWKHz)
						nae.Uint32(5, 0) // NL80211_ATTR_POWER_RULE_MAX_ANT_GAIN
						nae.Uint32(attrPowerRuleMaxEIRP, r.MaxEIRPmBm)
						nae.Uint32(attrDfsCacTime, r.CACms)
						return nil
					})
				}
				return nil
			})
		}),
	}
}

// The world domain of a kernel with wireless-regdb (db.txt "country 00").
var world = []RegRule{
	{StartKHz: 2402000, EndKHz: 2472000, MaxBWKHz: 40000, MaxEIRPmBm: 2000},
	{StartKHz: 2457000, EndKHz: 2482000, MaxBWKHz: 20000, MaxEIRPmBm: 2000, Flags: RuleNoIR | RuleAutoBW},
	{StartKHz: 5170000, EndKHz: 5250000, MaxBWKHz: 80000, MaxEIRPmBm: 2000, Flags: RuleNoIR | RuleAutoBW},
	{StartKHz: 5250000, EndKHz: 5330000, MaxBWKHz: 80000, MaxEIRPmBm: 2000, Flags: RuleNoIR | RuleDFS | RuleAutoBW},
}

var us = []RegRule{
	{StartKHz: 2400000, EndKHz: 2472000, MaxBWKHz: 40000, MaxEIRPmBm: 3000},
	{StartKHz: 5170000, EndKHz: 5250000, MaxBWKHz: 80000, MaxEIRPmBm: 2300, Flags: RuleAutoBW},
	{StartKHz: 5250000, EndKHz: 5330000, MaxBWKHz: 80000, MaxEIRPmBm: 2300, Flags: RuleDFS | RuleAutoBW, CACms: 60000},
}

func TestRegDomain(t *testing.T) {
	c := testConn(t, genltest.CheckRequest(testFamily.ID, cmdGetReg, netlink.Request,
		func(genetlink.Message, netlink.Message) ([]genetlink.Message, error) {
			return []genetlink.Message{regReply(t, "00", 0, world...)}, nil
		}))
	d, err := c.RegDomain()
	if err != nil {
		t.Fatal(err)
	}
	if d.Alpha2 != "00" || !d.World() || len(d.Rules) != 4 || d.Rules[3] != world[3] {
		t.Fatalf("domain = %+v", d)
	}
	r, ok := d.RuleFor(5180)
	if !ok || r.Flags&RuleNoIR == 0 {
		t.Errorf("RuleFor(5180) = %+v %v, want the no-IR rule", r, ok)
	}
	if _, ok := d.RuleFor(5500); ok {
		t.Errorf("RuleFor(5500) found a rule in a domain without one")
	}
}

// regKernel fakes the regulatory core: GET_REG returns the current domain,
// REQ_SET_REG switches it to what apply returns and queues the
// NL80211_CMD_REG_CHANGE multicast for the events socket.
type regKernel struct {
	t      *testing.T
	cur    genetlink.Message
	apply  func(alpha2 string) (genetlink.Message, Event)
	events chan Event
	sets   int
}

func (k *regKernel) serve(greq genetlink.Message, _ netlink.Message) ([]genetlink.Message, error) {
	switch greq.Header.Command {
	case cmdGetReg:
		return []genetlink.Message{k.cur}, nil
	case cmdReqSetReg:
		k.sets++
		a := string(attrs(k.t, greq.Data)[attrRegAlpha2])
		var ev Event
		k.cur, ev = k.apply(a[:len(a)-1])
		k.events <- ev
		return ack, nil
	}
	return nil, genltest.Error(int(unix.EOPNOTSUPP))
}

var familyWithGroups = genetlink.Family{ID: testFamily.ID, Version: 1, Name: "nl80211",
	Groups: []genetlink.MulticastGroup{{ID: 3, Name: "config"}, {ID: 5, Name: "regulatory"}}}

// eventsConn returns an Events whose Next yields what the fake queues, or
// ENOBUFS for a nil event.
func eventsConn(t *testing.T, events chan Event) *Events {
	t.Helper()
	c := genltest.Dial(genltest.ServeFamily(familyWithGroups, func(genetlink.Message, netlink.Message) ([]genetlink.Message, error) {
		select {
		case ev := <-events:
			if ev.Kind == EventOther {
				return nil, os.NewSyscallError("recvmsg", unix.ENOBUFS)
			}
			return []genetlink.Message{eventMsg(t, ev)}, nil
		case <-time.After(2 * time.Second):
			return nil, os.ErrDeadlineExceeded
		}
	}))
	e, err := newEvents(c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// eventMsg encodes ev as nl80211_common_reg_change_event /
// nl80211_notify_iface would.
func eventMsg(t *testing.T, ev Event) genetlink.Message {
	cmd := map[EventKind]uint8{EventRegChange: cmdRegChange, EventDelInterface: cmdDelInterface,
		EventNewInterface: cmdNewInterface, EventChannelSwitch: cmdChSwitchNotify}[ev.Kind]
	return genetlink.Message{Header: genetlink.Header{Command: cmd}, Data: encode(t, func(ae *netlink.AttributeEncoder) {
		switch ev.Kind {
		case EventRegChange:
			ae.Uint8(attrRegInitiator, 1) // NL80211_REGDOM_SET_BY_USER
			ae.Uint8(attrRegType, uint8(ev.RegType))
			if ev.RegType == RegTypeCountry {
				ae.String(attrRegAlpha2, ev.Alpha2)
			}
		default:
			ae.Uint32(attrWiphy, uint32(ev.PHY))
			ae.Uint32(attrIfindex, uint32(ev.Ifindex))
			ae.String(attrIfname, ev.Ifname)
			if ev.Freq != 0 {
				ae.Uint32(attrWiphyFreq, uint32(ev.Freq))
			}
		}
	})}
}

func TestSetCountry(t *testing.T) {
	k := &regKernel{t: t, cur: regReply(t, "00", 0, world...), events: make(chan Event, 4)}
	k.apply = func(a string) (genetlink.Message, Event) {
		return regReply(t, a, 1, us...), Event{Kind: EventRegChange, RegType: RegTypeCountry, Alpha2: a}
	}
	c := testConn(t, k.serve)
	d, err := c.SetCountry(context.Background(), eventsConn(t, k.events), "US")
	if err != nil {
		t.Fatal(err)
	}
	if d.Alpha2 != "US" || d.DFSRegion != 1 || len(d.Rules) != 3 || d.Rules[2].CACms != 60000 {
		t.Errorf("applied domain = %+v", d)
	}
	// Asking again sends nothing: the kernel would ignore the hint and stay
	// silent.
	if _, err := c.SetCountry(context.Background(), eventsConn(t, k.events), "US"); err != nil || k.sets != 1 {
		t.Errorf("repeat: err %v, %d requests, want 1", err, k.sets)
	}
}

// Hand-built: a lost event (ENOBUFS) cannot be recorded on demand.
func TestSetCountryResync(t *testing.T) {
	k := &regKernel{t: t, cur: regReply(t, "00", 0, world...), events: make(chan Event, 4)}
	k.apply = func(a string) (genetlink.Message, Event) {
		return regReply(t, a, 2, us...), Event{} // the event is lost: ENOBUFS
	}
	c := testConn(t, k.serve)
	d, err := c.SetCountry(context.Background(), eventsConn(t, k.events), "DE")
	if err != nil || d.Alpha2 != "DE" {
		t.Fatalf("SetCountry after ENOBUFS = %+v, %v; want DE read back", d, err)
	}
}

// Hand-built: needs a country without regulatory data.
func TestSetCountryRestoredWorld(t *testing.T) {
	k := &regKernel{t: t, cur: regReply(t, "00", 0, world...), events: make(chan Event, 4)}
	k.apply = func(string) (genetlink.Message, Event) {
		return regReply(t, "00", 0, world...), Event{Kind: EventRegChange, RegType: RegTypeWorld, Alpha2: "00"}
	}
	c := testConn(t, k.serve)
	_, err := c.SetCountry(context.Background(), eventsConn(t, k.events), "XY")
	if err == nil {
		t.Fatal("SetCountry succeeded although the kernel restored the world domain")
	}
	t.Log(err)
}

func TestSetCountryBadCode(t *testing.T) {
	c := testConn(t, func(genetlink.Message, netlink.Message) ([]genetlink.Message, error) {
		t.Error("request sent for an invalid code")
		return nil, nil
	})
	if _, err := c.SetCountry(context.Background(), nil, "USA"); err == nil {
		t.Fatal("accepted a three-letter code")
	}
}

func TestEvents(t *testing.T) {
	q := make(chan Event, 4)
	e := eventsConn(t, q)
	q <- Event{Kind: EventDelInterface, PHY: 2, Ifindex: 7, Ifname: "airq0"}
	evs, err := e.Next()
	if err != nil || len(evs) != 1 {
		t.Fatalf("Next = %v, %v", evs, err)
	}
	if got := evs[0]; got.Kind != EventDelInterface || got.Cmd != cmdDelInterface || got.PHY != 2 || got.Ifindex != 7 || got.Ifname != "airq0" {
		t.Errorf("event = %+v", got)
	}
	q <- Event{Kind: EventChannelSwitch, PHY: 0, Ifindex: 3, Ifname: "wlan0", Freq: 5180}
	if evs, err := e.Next(); err != nil || evs[0].Freq != 5180 || evs[0].Kind != EventChannelSwitch {
		t.Errorf("channel switch = %+v, %v", evs, err)
	}
	q <- Event{} // overflow
	if _, err := e.Next(); !errors.Is(err, ErrResync) {
		t.Errorf("after ENOBUFS err = %v, want ErrResync", err)
	}
}

func TestEventsJoinUnknownGroup(t *testing.T) {
	e := eventsConn(t, make(chan Event))
	if err := e.join([]string{"nan"}); err == nil {
		t.Error("joined a group the family does not have")
	}
}
