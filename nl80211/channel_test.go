package nl80211

import (
	"errors"
	"testing"

	"github.com/mdlayher/genetlink"
	"github.com/mdlayher/genetlink/genltest"
	"github.com/mdlayher/netlink"
	"golang.org/x/sys/unix"
)

func TestSetChannelRequest(t *testing.T) {
	tests := []struct {
		name     string
		ch       Channel
		center1  uint32
		center2  uint32 // 0: absent
		chanType int64  // -1: absent
	}{
		{"no HT", Channel{Freq: 2412}, 2412, 0, chanNoHt},
		{"HT20", Channel{Freq: 2437, Width: Width20}, 2437, 0, chanHt20},
		{"HT40+", Channel{Freq: 5180, Width: Width40, Center1: 5190}, 5190, 0, chanHt40plus},
		{"HT40-", Channel{Freq: 5200, Width: Width40, Center1: 5190}, 5190, 0, chanHt40minus},
		{"VHT80", Channel{Freq: 5180, Width: Width80, Center1: 5210}, 5210, 0, -1},
		{"VHT160", Channel{Freq: 5180, Width: Width160, Center1: 5250}, 5250, 0, -1},
		{"80+80", Channel{Freq: 5180, Width: Width80P80, Center1: 5210, Center2: 5775}, 5210, 5775, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := testConn(t, genltest.CheckRequest(testFamily.ID, cmdSetWiphy, netlink.Request|netlink.Acknowledge,
				func(greq genetlink.Message, _ netlink.Message) ([]genetlink.Message, error) {
					m := attrs(t, greq.Data)
					if got := u32(t, m, attrIfindex); got != 5 {
						t.Errorf("ifindex = %d", got)
					}
					if got := u32(t, m, attrWiphyFreq); got != uint32(tt.ch.Freq) {
						t.Errorf("freq = %d", got)
					}
					if got := u32(t, m, attrChannelWidth); got != uint32(tt.ch.Width) {
						t.Errorf("width = %d", got)
					}
					if got := u32(t, m, attrCenterFreq1); got != tt.center1 {
						t.Errorf("center1 = %d, want %d", got, tt.center1)
					}
					if _, ok := m[attrCenterFreq2]; ok != (tt.center2 != 0) {
						t.Errorf("center2 present = %v", ok)
					} else if ok && u32(t, m, attrCenterFreq2) != tt.center2 {
						t.Errorf("center2 = %d", u32(t, m, attrCenterFreq2))
					}
					if _, ok := m[attrWiphyChannelType]; ok != (tt.chanType >= 0) {
						t.Errorf("channel type present = %v", ok)
					} else if ok && int64(u32(t, m, attrWiphyChannelType)) != tt.chanType {
						t.Errorf("channel type = %d, want %d", u32(t, m, attrWiphyChannelType), tt.chanType)
					}
					return ack, nil
				}))
			if err := c.SetChannel(5, tt.ch); err != nil {
				t.Fatalf("SetChannel: %v", err)
			}
		})
	}
}

func TestSetChannelInvalid(t *testing.T) {
	c := testConn(t, func(genetlink.Message, netlink.Message) ([]genetlink.Message, error) {
		t.Error("an invalid channel reached the kernel")
		return nil, nil
	})
	for _, ch := range []Channel{
		{},
		{Freq: 2412, Center1: 2417},
		{Freq: 5180, Width: Width40},
		{Freq: 5180, Width: Width40, Center1: 5200},
		{Freq: 5180, Width: Width80},
		{Freq: 5180, Width: Width80P80, Center1: 5210},
		{Freq: 5180, Width: 13},
	} {
		if err := c.SetChannel(1, ch); err == nil {
			t.Errorf("SetChannel(%+v) succeeded", ch)
		}
	}
}

func TestSetChannelBusy(t *testing.T) {
	c := testConn(t, func(genetlink.Message, netlink.Message) ([]genetlink.Message, error) {
		return nil, genltest.Error(int(unix.EBUSY))
	})
	err := c.SetChannel(5, Channel{Freq: 2412})
	if !errors.Is(err, unix.EBUSY) {
		t.Fatalf("err = %v, want EBUSY", err)
	}
	var ne *Error
	if !errors.As(err, &ne) || ne.Op == "" {
		t.Errorf("err = %#v, want *Error with an operation", err)
	}
}
