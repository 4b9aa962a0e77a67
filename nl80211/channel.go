package nl80211

import (
	"errors"
	"fmt"

	"github.com/mdlayher/netlink"
)

// SetChannel tunes the interface (a monitor) to ch. It fails with EBUSY when
// a non-monitor interface is running on the same wiphy.
func (c *Conn) SetChannel(ifindex int, ch Channel) error {
	op := fmt.Sprintf("set channel %d MHz %v on interface %d", ch.Freq, ch.Width, ifindex)
	if err := ch.normalize(); err != nil {
		return &Error{Op: op, Err: err}
	}
	_, err := c.request(op, cmdSetWiphy, netlink.Acknowledge, func(ae *netlink.AttributeEncoder) {
		ae.Uint32(attrIfindex, uint32(ifindex))
		encodeChannel(ae, ch)
	})
	return err
}

// normalize fills Center1 for 20 MHz widths and checks the definition.
func (ch *Channel) normalize() error {
	if ch.Freq <= 0 {
		return errors.New("no frequency")
	}
	switch ch.Width {
	case Width20NoHT, Width20:
		if ch.Center1 == 0 {
			ch.Center1 = ch.Freq
		}
		if ch.Center1 != ch.Freq || ch.Center2 != 0 {
			return errors.New("a 20 MHz channel is centred on its frequency")
		}
	case Width40:
		if ch.Center1 != ch.Freq+10 && ch.Center1 != ch.Freq-10 {
			return errors.New("a 40 MHz channel needs its centre 10 MHz above or below the frequency")
		}
		if ch.Center2 != 0 {
			return errors.New("a 40 MHz channel has one segment")
		}
	case Width80, Width160:
		if ch.Center1 == 0 || ch.Center2 != 0 {
			return errors.New("needs the centre frequency of its one segment")
		}
		half := 40
		if ch.Width == Width160 {
			half = 80
		}
		if d := ch.Freq - ch.Center1; d <= -half || d >= half || (d+half-10)%20 != 0 {
			return fmt.Errorf("%d MHz is not a 20 MHz channel of the %v segment centred on %d MHz", ch.Freq, ch.Width, ch.Center1)
		}
	case Width80P80:
		if ch.Center1 == 0 || ch.Center2 == 0 {
			return errors.New("80+80 MHz needs both centre frequencies")
		}
	default:
		return fmt.Errorf("unsupported %v", ch.Width)
	}
	return nil
}

// encodeChannel writes a channel definition the way iw does: for 20 and 40
// MHz also the legacy channel type, which the kernel prefers when present.
func encodeChannel(ae *netlink.AttributeEncoder, ch Channel) {
	ae.Uint32(attrWiphyFreq, uint32(ch.Freq))
	ae.Uint32(attrChannelWidth, uint32(ch.Width))
	ae.Uint32(attrCenterFreq1, uint32(ch.Center1))
	if ch.Center2 != 0 {
		ae.Uint32(attrCenterFreq2, uint32(ch.Center2))
	}
	if t, ok := channelType(ch); ok {
		ae.Uint32(attrWiphyChannelType, t)
	}
}

func channelType(ch Channel) (uint32, bool) {
	switch ch.Width {
	case Width20NoHT:
		return chanNoHt, true
	case Width20:
		return chanHt20, true
	case Width40:
		if ch.Center1 > ch.Freq {
			return chanHt40plus, true
		}
		return chanHt40minus, true
	}
	return 0, false
}
