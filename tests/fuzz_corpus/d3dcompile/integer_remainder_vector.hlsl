RWStructuredBuffer<int> output : register(u0);
cbuffer C : register(b0) { int a; int b; int m; };

