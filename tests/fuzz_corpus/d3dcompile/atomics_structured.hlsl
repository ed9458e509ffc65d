RWStructuredBuffer<int> signed_values : register(u0);
RWStructuredBuffer<uint> unsigned_values : register(u1);

