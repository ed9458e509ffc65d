RWStructuredBuffer<int> o : register(u0);
[numthreads(1, 1, 1)] void main() { float4 r = mul(float1(2), float4x4(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16)); o[0] = (int)r.x; }
