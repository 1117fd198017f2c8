// Self-checking testbench for both radix-2 Montgomery multipliers. Reads the vector file
// named by +vectors=FILE, written by `modred radix2-vectors --bits K` (one vector a line:
// A1 A2 B1 B2 N a S_plain S_recoded, hexadecimal), runs every vector through both
// designs and checks: S1 + S2 equals the software's raw result, the recoded result is
// below 2N, and the cycle counts are K + 1 and K + 2. Prints one "PASS k=... vectors=..."
// line, or a "FAIL" line per mismatch and a final "FAIL" summary (and stops with $fatal).
module tb_radix2;
    parameter K = 16;

    reg clk = 1'b0;
    always #5 clk = ~clk;

    reg          start = 1'b0;
    reg [K-1:0]  a1, a2, b1, b2, n, corr;
    reg [K+1:0]  exp_plain, exp_recoded;
    wire         done_p, done_r;
    wire [K:0]   p1, p2, r1, r2;

    radix2_mont_plain #(.K(K)) plain (
        .clk(clk), .start(start), .a1(a1), .a2(a2), .b1(b1), .b2(b2), .n(n),
        .done(done_p), .s1_out(p1), .s2_out(p2));
    radix2_mont_recoded #(.K(K)) recoded (
        .clk(clk), .start(start), .a1(a1), .a2(a2), .b1(b1), .b2(b2), .n(n), .corr(corr),
        .done(done_r), .s1_out(r1), .s2_out(r2));

    integer fd, got, count, errors, cycles, cyc_p, cyc_r;
    reg [8*1024-1:0] path;
    reg [K+1:0] sum_p, sum_r;

    initial begin
        count = 0;
        errors = 0;
        if (!$value$plusargs("vectors=%s", path)) begin
            $display("FAIL no +vectors=FILE given");
            $fatal(1);
        end
        fd = $fopen(path, "r");
        if (fd == 0) begin
            $display("FAIL cannot open %0s", path);
            $fatal(1);
        end
        @(negedge clk);
        while (!$feof(fd)) begin
            got = $fscanf(fd, "%h %h %h %h %h %h %h %h\n",
                          a1, a2, b1, b2, n, corr, exp_plain, exp_recoded);
            if (got == 8) begin
                start = 1'b1;
                @(negedge clk);
                start = 1'b0;
                cycles = 1;
                cyc_p = 0;
                cyc_r = 0;
                while (cyc_p == 0 || cyc_r == 0) begin
                    if (done_p && cyc_p == 0) cyc_p = cycles;
                    if (done_r && cyc_r == 0) cyc_r = cycles;
                    if (cycles > K + 8) begin
                        cyc_p = (cyc_p == 0) ? -1 : cyc_p;
                        cyc_r = (cyc_r == 0) ? -1 : cyc_r;
                    end else begin
                        @(negedge clk);
                        cycles = cycles + 1;
                    end
                end
                sum_p = p1 + p2;
                sum_r = r1 + r2;
                if (sum_p !== exp_plain || cyc_p != K + 1) begin
                    errors = errors + 1;
                    $display("FAIL plain vector %0d: got %h in %0d cycles, want %h in %0d",
                             count, sum_p, cyc_p, exp_plain, K + 1);
                end
                if (sum_r !== exp_recoded || cyc_r != K + 2 || sum_r >= {n, 1'b0}) begin
                    errors = errors + 1;
                    $display("FAIL recoded vector %0d: got %h in %0d cycles, want %h in %0d (< 2N)",
                             count, sum_r, cyc_r, exp_recoded, K + 2);
                end
                count = count + 1;
            end else if (got != -1) begin
                errors = errors + 1;
                $display("FAIL malformed vector line after vector %0d", count);
                got = $fgetc(fd);
                while (got != 10 && got != -1) got = $fgetc(fd);
            end
        end
        $fclose(fd);
        if (errors == 0 && count > 0) begin
            $display("PASS k=%0d vectors=%0d", K, count);
            $finish;
        end else begin
            $display("FAIL k=%0d vectors=%0d errors=%0d", K, count, errors);
            $fatal(1);
        end
    end
endmodule
