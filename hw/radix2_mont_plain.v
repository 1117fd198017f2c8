// Conventional radix-2 Montgomery multiplier with a 5-to-2 carry-save adder
// (paper 004 §2 and §5, after McIvor et al.; the model is
// modred_research::radix2_model, Design::Plain).
//
// Computes S1 + S2 = A·B·2^(-K) mod N (+ 0 or N, below 2N) for carry-save operands
// A = A1 + A2 < N, B = B1 + B2 < N and an odd K-bit N, in K + 1 clock cycles from the edge
// that samples `start`: one cycle loads the operands and clears S (the bit-serial adder
// produces A_0 into its register), then K loop cycles, one bit of A each:
//   q   = S1_0 ^ S2_0 ^ A_i·B1_0 ^ A_i·B2_0
//   S   = (S1 + S2 + A_i·B1 + A_i·B2 + q·N) / 2   in carry-save form.
// Each column of the 5-to-2 adder is three full adders: FA(q·N, S1, S2), FA(., ., A_i·B1),
// FA(., ., A_i·B2).
module radix2_mont_plain #(parameter K = 16) (
    input  wire         clk,
    input  wire         start,
    input  wire [K-1:0] a1,
    input  wire [K-1:0] a2,
    input  wire [K-1:0] b1,
    input  wire [K-1:0] b2,
    input  wire [K-1:0] n,
    output reg          done,
    output wire [K:0]   s1_out,
    output wire [K:0]   s2_out
);
    localparam W = K + 3;            // S + A_i·B + q·N < 4N < 2^(K+2)
    localparam CW = $clog2(K + 1);

    reg [W-1:0] s1, s2, b1r, b2r, nr;
    reg [K-1:0] a1r, a2r;            // bit-serial adder of A1 + A2
    reg         ai, ac;              // its registered output bit and carry
    reg         busy;
    reg [CW-1:0] cnt;

    wire         q  = s1[0] ^ s2[0] ^ (ai & b1r[0]) ^ (ai & b2r[0]);
    wire [W-1:0] qn = {W{q}} & nr;
    wire [W-1:0] x1 = {W{ai}} & b1r;
    wire [W-1:0] x2 = {W{ai}} & b2r;
    // Level 1: FA(q·N, S1, S2)
    wire [W-1:0] u  = qn ^ s1 ^ s2;
    wire [W:0]   cu = {(qn & s1) | (qn & s2) | (s1 & s2), 1'b0};
    // Level 2: FA(u, cu, A_i·B1)
    wire [W-1:0] v  = u ^ cu[W-1:0] ^ x1;
    wire [W:0]   cv = {(u & cu[W-1:0]) | (u & x1) | (cu[W-1:0] & x1), 1'b0};
    // Level 3: FA(v, cv, A_i·B2)
    wire [W-1:0] t  = v ^ cv[W-1:0] ^ x2;
    wire [W:0]   ct = {(v & cv[W-1:0]) | (v & x2) | (cv[W-1:0] & x2), 1'b0};

    assign s1_out = s1[K:0];
    assign s2_out = s2[K:0];

    always @(posedge clk) begin
        done <= 1'b0;
        if (start) begin
            s1  <= {W{1'b0}};
            s2  <= {W{1'b0}};
            b1r <= {{(W-K){1'b0}}, b1};
            b2r <= {{(W-K){1'b0}}, b2};
            nr  <= {{(W-K){1'b0}}, n};
            {ac, ai} <= a1[0] + a2[0];
            a1r <= a1 >> 1;
            a2r <= a2 >> 1;
            cnt <= {CW{1'b0}};
            busy <= 1'b1;
        end else if (busy) begin
            s1 <= {1'b0, t[W-1:1]};  // divide by 2: column 0's sum is 0
            s2 <= ct[W:1];
            {ac, ai} <= a1r[0] + a2r[0] + ac;
            a1r <= a1r >> 1;
            a2r <= a2r >> 1;
            cnt <= cnt + 1'b1;
            if (cnt == K - 1) begin
                busy <= 1'b0;
                done <= 1'b1;
            end
        end
    end
endmodule
