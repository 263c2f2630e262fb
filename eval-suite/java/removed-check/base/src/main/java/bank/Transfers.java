package bank;

public final class Transfers {
    private Transfers() {}

    /** Moves {@code amount} cents from one account to another. */
    public static void transfer(Account from, Account to, long amount) {
        if (amount <= 0) {
            throw new IllegalArgumentException("amount must be positive");
        }
        if (from.balance() < amount) {
            throw new IllegalStateException("insufficient funds");
        }
        from.withdraw(amount);
        to.deposit(amount);
    }
}
