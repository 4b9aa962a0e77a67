package nl80211

import (
	"errors"
	"os"
	"testing"

	"github.com/mdlayher/genetlink"
	"github.com/mdlayher/genetlink/genltest"
	"github.com/mdlayher/netlink"
)

// splitDump is hand-built (TestRecordedPHYs replays the kernel's dump): a
// short GET_WIPHY split dump: phy0 over three messages (its 2.4 GHz
// band's channels split across two of them), phy1 in one.
func splitDump(t *testing.T) []genetlink.Message {
	freq := func(ae *netlink.AttributeEncoder, idx uint16, mhz uint32, flags ...uint16) {
		ae.Nested(idx, func(nae *netlink.AttributeEncoder) error {
			nae.Uint32(frequencyAttrFreq, mhz)
			for _, f := range flags {
				nae.Flag(f, true)
			}
			nae.Uint32(frequencyAttrMaxTxPower, 2000)
			return nil
		})
	}
	band := func(ae *netlink.AttributeEncoder, idx uint16, fn func(*netlink.AttributeEncoder)) {
		ae.Nested(attrWiphyBands, func(bae *netlink.AttributeEncoder) error {
			bae.Nested(idx, func(nae *netlink.AttributeEncoder) error {
				fn(nae)
				return nil
			})
			return nil
		})
	}
	msg := func(fn func(*netlink.AttributeEncoder)) genetlink.Message {
		return genetlink.Message{Data: encode(t, fn)}
	}
	return []genetlink.Message{
		msg(func(ae *netlink.AttributeEncoder) {
			ae.Uint32(attrWiphy, 0)
			ae.String(attrWiphyName, "phy0")
			ae.Bytes(attrMac, []byte{2, 0, 0, 0, 0, 0})
			ae.Uint32(attrFeatureFlags, featureActiveMonitor)
			ae.Bytes(attrExtFeatures, []byte{0, 0, 0, 0, 0, 0x01}) // bit 40: AQL
			ae.Nested(attrSupportedIftypes, func(nae *netlink.AttributeEncoder) error {
				nae.Flag(uint16(IfTypeStation), true)
				nae.Flag(uint16(IfTypeMonitor), true)
				return nil
			})
		}),
		msg(func(ae *netlink.AttributeEncoder) {
			ae.Uint32(attrWiphy, 0)
			band(ae, 0, func(nae *netlink.AttributeEncoder) {
				nae.Uint16(bandAttrHtCapa, 0x116e)
				nae.Nested(bandAttrFreqs, func(fae *netlink.AttributeEncoder) error {
					freq(fae, 0, 2412)
					freq(fae, 1, 2417)
					return nil
				})
			})
		}),
		msg(func(ae *netlink.AttributeEncoder) {
			ae.Uint32(attrWiphy, 0)
			band(ae, 0, func(nae *netlink.AttributeEncoder) {
				nae.Nested(bandAttrFreqs, func(fae *netlink.AttributeEncoder) error {
					freq(fae, 0, 2484, frequencyAttrDisabled)
					return nil
				})
			})
			band(ae, 1, func(nae *netlink.AttributeEncoder) {
				nae.Uint32(bandAttrVhtCapa, 0x03800032)
				nae.Nested(bandAttrFreqs, func(fae *netlink.AttributeEncoder) error {
					freq(fae, 0, 5260, frequencyAttrNoIr, frequencyAttrRadar)
					return nil
				})
				nae.Nested(bandAttrRates, func(rae *netlink.AttributeEncoder) error {
					rae.Nested(0, func(r *netlink.AttributeEncoder) error {
						r.Uint32(bitrateAttrRate, 60)
						return nil
					})
					return nil
				})
			})
		}),
		msg(func(ae *netlink.AttributeEncoder) {
			ae.Uint32(attrWiphy, 1)
			ae.String(attrWiphyName, "phy1")
		}),
	}
}

func TestPHYsSplitDump(t *testing.T) {
	c := testConn(t, genltest.CheckRequest(testFamily.ID, cmdGetWiphy, netlink.Request|netlink.Dump,
		func(greq genetlink.Message, _ netlink.Message) ([]genetlink.Message, error) {
			if v, ok := attrs(t, greq.Data)[attrSplitWiphyDump]; !ok || len(v) != 0 {
				t.Errorf("split dump flag missing")
			}
			return splitDump(t), nil
		}))
	phys, err := c.PHYs()
	if err != nil {
		t.Fatalf("PHYs: %v", err)
	}
	if len(phys) != 2 || phys[0].Name != "phy0" || phys[1].Name != "phy1" {
		t.Fatalf("phys = %+v", phys)
	}
	p := phys[0]
	if !p.ActiveMonitor || !p.Monitor || !p.HasExtFeature(40) || p.HasExtFeature(41) || p.PermAddr[0] != 2 {
		t.Errorf("phy0 = %+v", p)
	}
	if len(p.Bands) != 2 {
		t.Fatalf("bands = %+v", p.Bands)
	}
	b0, b1 := p.Bands[0], p.Bands[1]
	if b0.Index != 0 || b0.HTCapa != 0x116e || len(b0.Channels) != 3 || b0.Channels[2].Freq != 2484 || !b0.Channels[2].Disabled {
		t.Errorf("2.4 GHz band = %+v", b0)
	}
	if b0.Channels[0] != (ChannelInfo{Freq: 2412, MaxPowerMBm: 2000}) {
		t.Errorf("channel 1 = %+v", b0.Channels[0])
	}
	if b1.Index != 1 || b1.VHTCapa != 0x03800032 || len(b1.Channels) != 1 || !b1.Channels[0].NoIR || !b1.Channels[0].Radar || len(b1.Rates) != 1 || b1.Rates[0] != 60 {
		t.Errorf("5 GHz band = %+v", b1)
	}
	if phys[1].ActiveMonitor || phys[1].Monitor {
		t.Errorf("phy1 = %+v", phys[1])
	}

	if got, err := c.PHYByName("phy1"); err != nil || got.Index != 1 {
		t.Errorf("PHYByName(phy1) = %+v, %v", got, err)
	}
	if _, err := c.PHYByName("phy9"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("PHYByName(phy9) error = %v, want ErrNotExist", err)
	}
}

// Hand-built: hwsim's survey (TestRecordedSurvey) has no IN_USE and no
// RX/TX times.
func TestSurvey(t *testing.T) {
	c := testConn(t, genltest.CheckRequest(testFamily.ID, cmdGetSurvey, netlink.Request|netlink.Dump,
		func(greq genetlink.Message, _ netlink.Message) ([]genetlink.Message, error) {
			if got := u32(t, attrs(t, greq.Data), attrIfindex); got != 4 {
				t.Errorf("ifindex = %d", got)
			}
			return []genetlink.Message{{Data: encode(t, func(ae *netlink.AttributeEncoder) {
				ae.Uint32(attrIfindex, 4)
				ae.Nested(attrSurveyInfo, func(nae *netlink.AttributeEncoder) error {
					nae.Uint32(surveyInfoFrequency, 2412)
					nae.Flag(surveyInfoInUse, true)
					nae.Uint8(surveyInfoNoise, uint8(0xa1)) // -95 dBm
					nae.Uint64(surveyInfoTime, 1000)
					nae.Uint64(surveyInfoTimeBusy, 250)
					nae.Uint64(surveyInfoTimeTx, 50)
					return nil
				})
			})}}, nil
		}))
	s, err := c.Survey(4)
	if err != nil {
		t.Fatalf("Survey: %v", err)
	}
	want := SurveyInfo{Freq: 2412, InUse: true, Noise: -95, HasNoise: true, Time: 1000, TimeBusy: 250, TimeTX: 50}
	if len(s) != 1 || s[0] != want {
		t.Errorf("survey = %+v, want %+v", s, want)
	}
}
