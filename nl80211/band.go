package nl80211

import (
	"github.com/mdlayher/netlink"
)

func (b *Band) decode(ad *netlink.AttributeDecoder) error {
	for ad.Next() {
		switch ad.Type() {
		case bandAttrHtCapa:
			b.HTCapa = ad.Uint16()
		case bandAttrVhtCapa:
			b.VHTCapa = ad.Uint32()
		case bandAttrRates:
			ad.Nested(b.decodeRates)
		case bandAttrFreqs:
			ad.Nested(b.decodeFreqs)
		}
	}
	return nil
}

func (b *Band) decodeRates(ad *netlink.AttributeDecoder) error {
	for ad.Next() {
		ad.Nested(func(nad *netlink.AttributeDecoder) error {
			for nad.Next() {
				if nad.Type() == bitrateAttrRate {
					b.Rates = append(b.Rates, int(nad.Uint32()))
				}
			}
			return nil
		})
	}
	return nil
}

func (b *Band) decodeFreqs(ad *netlink.AttributeDecoder) error {
	for ad.Next() {
		var ch ChannelInfo
		ad.Nested(ch.decode)
		b.addChannel(ch)
	}
	return nil
}

// addChannel appends ch, or replaces an entry with the same frequency
// (MHz and kHz offset: S1G channels 500 kHz apart share their MHz).
func (b *Band) addChannel(ch ChannelInfo) {
	for i := range b.Channels {
		if b.Channels[i].Freq == ch.Freq && b.Channels[i].FreqOffsetKHz == ch.FreqOffsetKHz {
			b.Channels[i] = ch
			return
		}
	}
	b.Channels = append(b.Channels, ch)
}

func (ch *ChannelInfo) decode(ad *netlink.AttributeDecoder) error {
	for ad.Next() {
		switch ad.Type() {
		case frequencyAttrFreq:
			ch.Freq = int(ad.Uint32())
		case frequencyAttrOffset:
			ch.FreqOffsetKHz = int(ad.Uint32())
		case frequencyAttrDisabled:
			ch.Disabled = true
		case frequencyAttrNoIr:
			ch.NoIR = true
		case frequencyAttrRadar:
			ch.Radar = true
		case frequencyAttrMaxTxPower:
			ch.MaxPowerMBm = int(ad.Uint32())
		case frequencyAttrNoHT40Plus:
			ch.NoHT40Plus = true
		case frequencyAttrNoHT40Minus:
			ch.NoHT40Minus = true
		case frequencyAttrNo80MHz:
			ch.No80MHz = true
		case frequencyAttrNo160MHz:
			ch.No160MHz = true
		}
	}
	return nil
}
