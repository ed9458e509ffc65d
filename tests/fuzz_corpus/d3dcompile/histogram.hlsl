ByteAddressBuffer values : register(t0);
RWStructuredBuffer<uint> bins : register(u0);
groupshared uint local_bins[16];

